import { Activity, Announce, type Object as APObject, Block, Follow, Like, type Undo } from "@fedify/vocab";
import type { Account } from "../../db/repositories/accounts.ts";
import { deleteRemoteStatus } from "../../services/federation/remote-deletes.ts";
import { removeFromListsOnUnfollow } from "../../services/lists/lists.ts";
import { loaderOptions, sameOrigin } from "../persist/origin.ts";
import { type Ctx, listener, localAccountOf } from "./common.ts";

async function undoFollow(ctx: Ctx, sender: Account, object: Follow | null, objectId: URL): Promise<void> {
  const app = ctx.data;
  let targetId = (await localAccountOf(ctx, object?.objectId ?? null))?.id;
  targetId ??= await app.repos.follows.targetByUri("follows", sender.id, objectId.href);
  targetId ??= await app.repos.follows.targetByUri("follow_requests", sender.id, objectId.href);
  if (targetId === undefined) return;
  const target = targetId;
  await app.db.transaction().execute(async (trx) => {
    await app.repos.follows.lockPair(sender.id, target, trx);
    await app.repos.follows.deleteRequest(sender.id, target, trx);
    if (await app.repos.follows.delete(sender.id, target, trx)) {
      await removeFromListsOnUnfollow(app, sender.id, target, trx);
    }
  });
}

async function undoLike(ctx: Ctx, sender: Account, object: Like): Promise<void> {
  const app = ctx.data;
  const statusUri = object.objectId;
  if (!statusUri) return;
  const status = await app.repos.statuses.getByUri(statusUri.href);
  if (!status) return;
  await app.db.transaction().execute(async (trx) => {
    if (!(await app.repos.statusInteractions.remove("favourites", sender.id, status.id, trx))) return;
    await app.repos.statuses.addToCounter(status.id, "favourites_count", -1, trx);
    await app.repos.notifications.deleteFrom("favourite", sender.id, status.id, trx);
  });
}

async function undoAnnounce(ctx: Ctx, sender: Account, announceId: URL): Promise<void> {
  const boost = await ctx.data.repos.statuses.getByUri(announceId.href);
  if (!boost || boost.reblogOfId === null) return;
  await deleteRemoteStatus(ctx.data, sender, boost);
}

async function undoBlock(ctx: Ctx, sender: Account, object: Block): Promise<void> {
  const target = await localAccountOf(ctx, object.objectId);
  if (target) await ctx.data.repos.relationships.deleteBlock(sender.id, target.id);
}

/**
 * Undo of the sender's own Follow, Like, Announce or Block (the undone activity must be the
 * sender's: same actor, same origin). A bare reference is resolved through what was stored
 * (a follow's or a boost's activity id) rather than fetched when the fetch fails.
 */
export const onUndo = listener<Undo>("Undo", async (ctx, activity, sender) => {
  const objectId = activity.objectId;
  if (!objectId || !sameOrigin(objectId, new URL(sender.uri))) return;
  const object: APObject | null = await activity.getObject(loaderOptions(ctx)).catch(() => null);
  if (object && object.id?.href !== objectId.href) return;
  if (object instanceof Activity && object.actorId?.href !== sender.uri) return;
  if (object instanceof Like) return undoLike(ctx, sender, object);
  if (object instanceof Block) return undoBlock(ctx, sender, object);
  if (object instanceof Announce || (!object && (await ctx.data.repos.statuses.getByUri(objectId.href)))) {
    return undoAnnounce(ctx, sender, objectId);
  }
  if (object instanceof Follow) return undoFollow(ctx, sender, object, objectId);
  if (!object) return undoFollow(ctx, sender, null, objectId);
});
