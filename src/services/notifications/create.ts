import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { notificationsBlocked } from "../../policies/blocks.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { isVisible } from "../statuses/views.ts";
import { groupKeyFor } from "./group-key.ts";

/** The types this server creates so far. */
export type NotificationType = "mention" | "favourite" | "reblog" | "update" | "poll";

/**
 * The payload of a `notifications.create` job. `statusId` is the post (for `reblog`: the boost);
 * `activityId` is what caused it (a favourite's, an edit's or a poll's id; a post's or boost's
 * own id by default); `fromAccountId` is given for favourites.
 */
export interface CreateNotificationsJob {
  type: NotificationType;
  statusId: string;
  activityId?: string;
  fromAccountId?: string;
}

/** Who a job notifies about which post, and from whom. */
async function recipients(
  ctx: AppContext,
  job: CreateNotificationsJob,
): Promise<{ status: Status; from: string; to: string[] } | undefined> {
  const status = await ctx.repos.statuses.getById(job.statusId);
  if (!status || status.deletedAt !== null) return undefined;
  switch (job.type) {
    case "mention": {
      const mentioned = (await ctx.repos.statuses.mentionsOf([status.id])).get(status.id) ?? [];
      return { status, from: status.accountId, to: mentioned };
    }
    case "favourite": {
      const from = job.fromAccountId;
      if (from === undefined) return undefined;
      // An undone favourite notifies nobody.
      if (!(await ctx.repos.statusInteractions.which("favourites", from, [status.id])).has(status.id)) return undefined;
      return { status, from, to: [status.accountId] };
    }
    case "reblog": {
      if (status.reblogOfId === null) return undefined;
      const original = await ctx.repos.statuses.getById(status.reblogOfId);
      if (!original || original.deletedAt !== null) return undefined;
      return { status: original, from: status.accountId, to: [original.accountId] };
    }
    case "update": {
      const boosts = await ctx.repos.statuses.liveReblogsOf(status.id);
      return { status, from: status.accountId, to: [...new Set(boosts.map((b) => b.accountId))] };
    }
    case "poll": {
      // The poll's end: its author and every voter (`activityId` is the poll).
      if (job.activityId === undefined || status.pollId !== job.activityId) return undefined;
      const voters = await ctx.repos.polls.voterIds(job.activityId);
      return { status, from: status.accountId, to: [status.accountId, ...voters] };
    }
  }
}

/**
 * The `notifications.create` job: notifies local accounts, never the one who acted, only about
 * posts they may see, and once per cause (the job may run twice).
 */
export async function createNotifications(ctx: AppContext, job: CreateNotificationsJob): Promise<void> {
  const found = await recipients(ctx, job);
  if (!found) return;
  const { status, from } = found;
  // The author is told of their own poll's end (Mastodon makes that one exception).
  const candidates = found.to.filter((id) => id !== from || job.type === "poll");
  if (candidates.length === 0) return;
  const locals = (await ctx.repos.accounts.getByIds(candidates)).filter((a) => a.domain === null);
  for (const account of locals) {
    if (!(await isVisible(ctx, status, account.id))) continue;
    // Nothing from an account the recipient blocks or mutes with notifications (policies/blocks.ts).
    if (notificationsBlocked(from, await blockMuteRelations(ctx, account.id, [from]))) continue;
    // A muted thread's mentions are not notified (Mastodon).
    if (job.type === "mention" && status.conversationId !== null) {
      const muted = await ctx.repos.statusInteractions.mutedConversations(account.id, [status.conversationId]);
      if (muted.size > 0) continue;
    }
    const now = new Date();
    const id = ctx.ids.next(now);
    await ctx.repos.notifications.insert({
      id,
      account_id: account.id,
      from_account_id: from,
      type: job.type,
      status_id: status.id,
      activity_id: job.activityId ?? job.statusId,
      group_key: await groupKeyFor(ctx, account.id, job.type, status.id, id, now),
      created_at: now.toISOString(),
    });
  }
}
