import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { removeStatusMedia } from "../media/status-media.ts";
import { deletionChannels, publishDeletes } from "../streaming/publish.ts";

/** Adds one to `key`'s count. */
function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * Deletes a batch of remote posts at once, as `deleteRemoteStatus` deletes one (a moderation
 * purge): each becomes a tombstone with its boosts, leaves pins, home and list feeds and
 * notifications, and the counters it added to (its author's posts, the boosted post's boosts,
 * the parent's replies) are taken back, in one transaction with a bounded number of statements
 * per batch. Streams get their `delete`s after the commit; then the media files and polls go.
 */
export async function deleteRemoteStatuses(ctx: AppContext, batch: readonly Status[]): Promise<void> {
  const statuses = batch.filter((s) => !s.local && s.deletedAt === null);
  if (statuses.length === 0) return;
  const iso = new Date().toISOString();
  const repo = ctx.repos.statuses;
  let deletes: Map<string, string[]> | undefined;
  await ctx.db.transaction().execute(async (trx) => {
    const ids = new Set(statuses.map((s) => s.id));
    const reblogs = (await ctx.repos.accountPurge.liveReblogsOfMany([...ids], trx)).filter((r) => !ids.has(r.id));
    const all = [...statuses, ...reblogs];
    const allIds = new Set(all.map((s) => s.id));
    deletes = await deletionChannels(ctx, all, trx);
    await ctx.repos.accountPurge.tombstoneMany([...allIds], iso, trx);
    await ctx.repos.quotes.statusesDeleted([...allIds], iso, trx);
    const posts = new Map<string, number>();
    const boosts = new Map<string, number>();
    const replies = new Map<string, number>();
    for (const s of all) {
      if (s.visibility !== "direct") count(posts, s.accountId);
      // Counters of posts deleted in this batch do not matter any more.
      if (s.reblogOfId !== null && !allIds.has(s.reblogOfId)) count(boosts, s.reblogOfId);
      if (
        s.inReplyToId !== null &&
        !allIds.has(s.inReplyToId) &&
        (s.visibility === "public" || s.visibility === "unlisted")
      ) {
        count(replies, s.inReplyToId);
      }
    }
    for (const [accountId, n] of posts) await repo.addToAccountCount(accountId, -n, null, trx);
    for (const [id, n] of boosts) await repo.addToCounter(id, "reblogs_count", -n, trx);
    for (const [id, n] of replies) await repo.addToCounter(id, "replies_count", -n, trx);
    for (const s of all) if (s.visibility === "direct") await ctx.repos.conversations.removeStatus(s.id, trx);
  });
  if (deletes) await publishDeletes(ctx, deletes);
  await removeStatusMedia(
    ctx,
    statuses.map((s) => s.id),
  );
  for (const s of statuses) if (s.pollId !== null) await ctx.repos.polls.delete(s.pollId);
}
