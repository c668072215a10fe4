import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { DB } from "../../db/schema.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { notFound } from "../../lib/errors.ts";
import { removeStatusMedia } from "../media/status-media.ts";
import { deletionChannels, publishDeletes } from "../streaming/publish.ts";

/** Marks one status deleted and undoes what it added to counters. */
async function tombstone(ctx: AppContext, status: Status, iso: string, trx: Kysely<DB>): Promise<void> {
  const repo = ctx.repos.statuses;
  await repo.update(status.id, { deleted_at: iso, updated_at: iso }, trx);
  await ctx.repos.quotes.statusesDeleted([status.id], iso, trx);
  await ctx.repos.statusInteractions.removeAllPins(status.id, trx);
  await ctx.repos.feeds.removeStatus(status.id, trx);
  await ctx.repos.lists.removeStatus(status.id, trx);
  if (status.visibility !== "direct") await repo.addToAccountCount(status.accountId, -1, null, trx);
  if (status.reblogOfId !== null) await repo.addToCounter(status.reblogOfId, "reblogs_count", -1, trx);
  if (status.inReplyToId !== null && (status.visibility === "public" || status.visibility === "unlisted")) {
    await repo.addToCounter(status.inReplyToId, "replies_count", -1, trx);
  }
}

/**
 * `DELETE /api/v1/statuses/:id` (and undoing a boost): the row stays as a tombstone (answered
 * 410), its boosts are deleted with it, pins dropped and counters updated. Only the author may.
 * Streaming clients that may have it get a `delete` once it committed.
 */
export async function deleteStatus(ctx: AppContext, account: Account, status: Status): Promise<Status> {
  // Mastodon looks the status up among the caller's own: anyone else's is not found.
  if (status.accountId !== account.id) throw notFound();
  const iso = new Date().toISOString();
  let deletes: Map<string, string[]> | undefined;
  await transactionWithJobs(ctx, async (trx, jobs) => {
    const current = await ctx.repos.statuses.getById(status.id, trx);
    if (!current || current.deletedAt !== null) return;
    // A boost is withdrawn with Undo Announce; a post is replaced by a Tombstone. Remote servers
    // drop the boosts of a deleted post themselves.
    if (current.local) {
      queueDelivery(jobs, { type: current.reblogOfId ? "announce.undo" : "status.delete", statusId: current.id });
    }
    const reblogs = await ctx.repos.statuses.liveReblogsOf(status.id, trx);
    // Before the feeds forget them: the streams that may show them get their `delete`.
    deletes = await deletionChannels(ctx, [current, ...reblogs], trx);
    await tombstone(ctx, current, iso, trx);
    for (const reblog of reblogs) {
      await tombstone(ctx, reblog, iso, trx);
    }
    await ctx.repos.notifications.deleteForStatuses([status.id, ...reblogs.map((r) => r.id)], trx);
    if (current.visibility === "direct") await ctx.repos.conversations.removeStatus(current.id, trx);
  });
  if (deletes) await publishDeletes(ctx, deletes);
  return (await ctx.repos.statuses.getById(status.id)) ?? status;
}

/**
 * After a delete has been answered: the media are deleted with `delete_media`, else detached so
 * a redraft can attach them again (unattached uploads are purged later).
 */
export async function releaseStatusMedia(ctx: AppContext, statusId: string, deleteMedia: boolean): Promise<void> {
  if (deleteMedia) await removeStatusMedia(ctx, [statusId]);
  else await ctx.repos.media.detachFromStatus(statusId);
}

/** After a delete has been answered (the redraft JSON shows the poll): the poll and its votes go. */
export async function removeStatusPoll(ctx: AppContext, status: Status): Promise<void> {
  if (status.pollId !== null) await ctx.repos.polls.delete(status.pollId);
}
