import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { COMMAND_LINE, logAction, type Moderator } from "../moderation/action-log.ts";
import type { LocalUser } from "./local-user.ts";

const logger = getLogger(["gannet", "admin"]);

/**
 * Deletes a local account the way Mastodon does: the user row goes (its OAuth grants and tokens
 * cascade with it), while the account row stays, emptied and marked deleted, so the username can
 * never be handed to someone else and the API answers 410 for it. The keys stay so that the
 * deletion can be signed: after the commit, a `Delete` of the actor goes to every server known
 * here (a delivery job), as Mastodon's.
 */
export async function deleteLocalAccount(
  ctx: AppContext,
  target: LocalUser,
  /** Who deletes it, for the action log; null when the caller logged the decision already (a purge job). */
  by: Moderator | null = COMMAND_LINE,
): Promise<void> {
  const { account, user } = target;
  const now = new Date().toISOString();
  await transactionWithJobs(ctx, async (trx, jobs) => {
    const name = `@${account.username}`;
    if (by)
      await logAction(
        ctx,
        by,
        {
          action: "destroy",
          targetType: "Account",
          targetId: account.id,
          humanIdentifier: name,
          summary: `deleted ${name}`,
        },
        trx,
      );
    await ctx.repos.users.delete(user.id, trx);
    // Its follows end both ways, so the other accounts' counters stay right.
    await ctx.repos.follows.removeAllOf(account.id, trx);
    await ctx.repos.accounts.update(
      account.id,
      {
        display_name: "",
        note: "",
        note_source: "",
        fields: "[]",
        fields_source: "[]",
        locked: false,
        discoverable: false,
        indexable: false,
        memorial: false,
        also_known_as: "[]",
        moved_to_account_id: null,
        avatar_path: null,
        avatar_remote_url: null,
        avatar_content_type: null,
        header_path: null,
        header_remote_url: null,
        header_content_type: null,
        silenced_at: null,
        suspended_at: account.suspendedAt ?? now,
        suspension_origin: "deleted",
        statuses_count: 0,
        followers_count: 0,
        following_count: 0,
        updated_at: now,
      },
      trx,
    );
    queueDelivery(jobs, { type: "actor.delete", accountId: account.id });
  });
  // Files go after the commit: a failed removal leaves an orphan file, never a half-deleted account.
  for (const key of [account.avatarPath, account.headerPath]) {
    if (key === null) continue;
    try {
      await ctx.blobs.delete(key);
    } catch (e) {
      logger.warn("Could not remove {key} of deleted account {id}: {error}", { key, id: account.id, error: e });
    }
  }
}
