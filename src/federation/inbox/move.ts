import type { Move } from "@fedify/vocab";
import { MOVE_FOLLOWERS_JOB, type MoveFollowersJob } from "../../services/federation/move.ts";
import { accountForActor } from "../persist/actor.ts";
import { listener } from "./common.ts";

/**
 * Move of the sender to another account: accepted only when the new account, fetched afresh,
 * names the sender in its `alsoKnownAs` (Mastodon's check). The old account is marked moved, and a
 * job has its local followers follow the new one and copies local users' notes.
 */
export const onMove = listener<Move>("Move", async (ctx, activity, sender) => {
  if (activity.objectId?.href !== sender.uri) return;
  const targetUri = activity.targetId;
  if (!targetUri || targetUri.href === sender.uri) return;
  const target = await accountForActor(ctx, targetUri, { force: true });
  if (!target || target.suspendedAt !== null || !target.alsoKnownAs.includes(sender.uri)) return;
  const app = ctx.data;
  await app.repos.accounts.update(sender.id, { moved_to_account_id: target.id, updated_at: new Date().toISOString() });
  await app.queue.enqueue(MOVE_FOLLOWERS_JOB, { originId: sender.id, targetId: target.id } satisfies MoveFollowersJob, {
    dedupeKey: `${MOVE_FOLLOWERS_JOB}:${sender.id}:${target.id}`,
  });
});
