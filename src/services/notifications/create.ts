import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { notificationsBlocked } from "../../policies/blocks.ts";
import { notificationCreated } from "../push/deliver.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { isVisible } from "../statuses/views.ts";
import { publishNotification } from "../streaming/publish.ts";
import { groupKeyFor } from "./group-key.ts";
import { policyDecision } from "./policy.ts";
import type { KnownNotificationType } from "./types.ts";

/** The types this server creates so far. */
export type NotificationType =
  | "mention"
  | "favourite"
  | "reblog"
  | "update"
  | "poll"
  | "status"
  | "quote"
  | "quoted_update";

/**
 * The payload of a `notifications.create` job. `statusId` is the post (for `reblog`: the boost;
 * for `quote`: the quoting post; for `quoted_update`: the edited quoted post); `activityId` is
 * what caused it (a favourite's, an edit's, a poll's or a quote's id; a post's or boost's own id
 * by default); `fromAccountId` is given for favourites.
 */
export interface CreateNotificationsJob {
  type: NotificationType;
  statusId: string;
  activityId?: string;
  fromAccountId?: string;
}

/**
 * The payload of a `notifications.create` job about an account rather than a post: `follow` and
 * `follow_request`, whose cause (`activityId`) is the follow's or the request's row, so a follow
 * undone before the job runs notifies nobody and undoing it later removes the notification.
 */
export interface CreateFollowNotificationJob {
  type: "follow" | "follow_request";
  activityId: string;
  fromAccountId: string;
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
    case "quote": {
      // The quoted post's author, while the quote (`activityId`) stands accepted and the post lives.
      const quote = await ctx.repos.quotes.byQuotingStatus(status.id);
      if (!quote || quote.id !== job.activityId || quote.state !== "accepted" || quote.quotedStatusId === null) {
        return undefined;
      }
      const quoted = await ctx.repos.statuses.getById(quote.quotedStatusId);
      if (!quoted || quoted.deletedAt !== null) return undefined;
      return { status, from: status.accountId, to: [quoted.accountId] };
    }
    case "quoted_update": {
      // Those whose live posts quote the edited post (accepted quotes).
      return { status, from: status.accountId, to: await ctx.repos.quotes.acceptedQuoterIds(status.id) };
    }
    case "poll": {
      // The poll's end: its author and every voter (`activityId` is the poll).
      if (job.activityId === undefined || status.pollId !== job.activityId) return undefined;
      const voters = await ctx.repos.polls.voterIds(job.activityId);
      return { status, from: status.accountId, to: [status.accountId, ...voters] };
    }
    case "status": {
      // A new post (not a boost, not a reply to someone else) for the followers who asked to be
      // notified, once it reached their home feed (Mastodon notifies on feed insertion).
      if (status.reblogOfId !== null) return undefined;
      if (status.inReplyToAccountId !== null && status.inReplyToAccountId !== status.accountId) return undefined;
      const to = await ctx.repos.follows.notifiedFollowersHolding(status.id);
      return { status, from: status.accountId, to };
    }
  }
}

/**
 * The `notifications.create` job: notifies local accounts, never the one who acted, only about
 * posts they may see, and once per cause (the job may run twice).
 */
export async function createNotifications(
  ctx: AppContext,
  job: CreateNotificationsJob | CreateFollowNotificationJob,
): Promise<void> {
  if (isFollowJob(job)) return createFollowNotification(ctx, job);
  const found = await recipients(ctx, job);
  if (!found) return;
  const { status, from } = found;
  // The author is told of their own poll's end (Mastodon makes that one exception).
  const candidates = found.to.filter((id) => id !== from || job.type === "poll");
  if (candidates.length === 0) return;
  const locals = (await ctx.repos.accounts.getByIds(candidates)).filter((a) => a.domain === null);
  let sender: Account | undefined;
  for (const account of locals) {
    if (!(await isVisible(ctx, status, account.id))) continue;
    // Nothing from an account the recipient blocks or mutes with notifications (policies/blocks.ts).
    if (notificationsBlocked(from, await blockMuteRelations(ctx, account.id, [from]))) continue;
    // A muted thread's mentions are not notified (Mastodon).
    if (job.type === "mention" && status.conversationId !== null) {
      const muted = await ctx.repos.statusInteractions.mutedConversations(account.id, [status.conversationId]);
      if (muted.size > 0) continue;
    }
    sender ??= await ctx.repos.accounts.getById(from);
    if (!sender) return;
    await store(ctx, account.id, sender, job.type, status, job.activityId ?? job.statusId);
  }
}

/**
 * Stores one notification under the recipient's notification policy (`policy.ts`): dropped, held
 * back (`filtered`, ungrouped, counted in the sender's request when a mention, as Mastodon), or
 * stored as usual.
 */
async function store(
  ctx: AppContext,
  recipientId: string,
  sender: Account,
  type: KnownNotificationType,
  status: Status | null,
  activityId: string,
): Promise<void> {
  const now = new Date();
  const decision = await policyDecision(ctx, recipientId, sender, type, status, now);
  if (decision === "drop") return;
  const id = ctx.ids.next(now);
  const filtered = decision === "filter";
  const stored = await ctx.repos.notifications.insert({
    id,
    account_id: recipientId,
    from_account_id: sender.id,
    type,
    status_id: status?.id ?? null,
    activity_id: activityId,
    group_key: filtered ? `ungrouped-${id}` : await groupKeyFor(ctx, recipientId, type, status?.id ?? null, id, now),
    filtered,
    created_at: now.toISOString(),
  });
  await notificationCreated(ctx, { id, accountId: recipientId, fromAccountId: sender.id, type, filtered });
  // A filtered one waits in its request: streams are not told (Mastodon).
  if (stored && !filtered) await publishNotification(ctx, recipientId, id);
  if (filtered && type === "mention") {
    await ctx.repos.notificationRequests.recordFiltered({
      id: ctx.ids.next(now),
      accountId: recipientId,
      fromAccountId: sender.id,
      lastStatusId: status?.id ?? null,
      now: now.toISOString(),
    });
  }
}

const isFollowJob = (job: CreateNotificationsJob | CreateFollowNotificationJob): job is CreateFollowNotificationJob =>
  job.type === "follow" || job.type === "follow_request";

/** A `follow` or `follow_request` notification for the local account followed, if the row still exists. */
async function createFollowNotification(ctx: AppContext, job: CreateFollowNotificationJob): Promise<void> {
  if (typeof job.activityId !== "string") return;
  const row = await ctx.repos.follows.byId(job.type === "follow" ? "follows" : "follow_requests", job.activityId);
  if (!row || row.accountId !== job.fromAccountId) return;
  const recipient = await ctx.repos.accounts.getById(row.targetAccountId);
  if (!recipient || recipient.domain !== null) return;
  if (notificationsBlocked(row.accountId, await blockMuteRelations(ctx, recipient.id, [row.accountId]))) return;
  const sender = await ctx.repos.accounts.getById(row.accountId);
  if (!sender) return;
  await store(ctx, recipient.id, sender, job.type, null, row.id);
}
