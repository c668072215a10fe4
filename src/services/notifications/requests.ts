import type { AppContext } from "../../context.ts";
import type { NotificationRequest } from "../../db/repositories/notification-requests.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { accountsJson } from "../accounts/views.ts";
import { addToConversations } from "../conversations/update.ts";
import { filterVisible, statusesJson } from "../statuses/views.ts";
import { publishNotificationsMerged } from "../streaming/publish.ts";

/**
 * Mastodon's NotificationRequest entities, in a bounded number of queries: the sender's account,
 * how many filtered mentions the request holds (a string, as Mastodon), and its latest post when
 * the recipient may still see it. A request whose sender is gone is left out.
 */
export async function notificationRequestsJson(
  ctx: AppContext,
  requests: readonly NotificationRequest[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  const senderIds = [...new Set(requests.map((r) => r.fromAccountId))];
  const accounts = await ctx.repos.accounts.getByIds(senderIds);
  const accountJson = await accountsJson(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountJson[i]]));
  const counts = await ctx.repos.notificationRequests.counts(viewerId, senderIds);
  const statusIds = [...new Set(requests.flatMap((r) => (r.lastStatusId === null ? [] : [r.lastStatusId])))];
  const statuses = await filterVisible(ctx, await ctx.repos.statuses.getByIds(statusIds), viewerId);
  const statusById = new Map((await statusesJson(ctx, statuses, viewerId)).map((s) => [s.id as string, s]));
  return requests.flatMap((r) => {
    const account = accountById.get(r.fromAccountId);
    if (account === undefined) return [];
    const out: Record<string, unknown> = {
      id: r.id,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      account,
      notifications_count: String(counts.get(r.fromAccountId) ?? 0),
    };
    const status = r.lastStatusId === null ? undefined : statusById.get(r.lastStatusId);
    if (status !== undefined) out.last_status = status;
    return [out];
  });
}

/**
 * Accepts notification requests (Mastodon's AcceptNotificationRequestService and the merge it
 * schedules, done at once): the senders are let through from then on, their filtered
 * notifications join the recipient's list, and their private mentions its conversations.
 */
export async function acceptRequests(ctx: AppContext, requests: readonly NotificationRequest[]): Promise<void> {
  if (requests.length === 0) return;
  const mentions = await ctx.repos.notificationRequests.filteredMentionStatusIds(requests);
  await ctx.repos.notificationRequests.accept(requests, () => ctx.ids.next(), new Date().toISOString());
  for (const r of requests) {
    for (const statusId of mentions.get(r.id) ?? []) await addToConversations(ctx, statusId, r.accountId);
  }
  for (const accountId of new Set(requests.map((r) => r.accountId))) await publishNotificationsMerged(ctx, accountId);
}

/** One page of the account's notification requests, newest first. */
export function notificationRequestsPage(
  ctx: AppContext,
  accountId: string,
  window: IdWindow,
): Promise<NotificationRequest[]> {
  return ctx.repos.notificationRequests.page(accountId, window);
}

/** The account's own requests among `ids`; others' are passed over. */
export function ownNotificationRequests(
  ctx: AppContext,
  accountId: string,
  ids: readonly string[],
): Promise<NotificationRequest[]> {
  return ctx.repos.notificationRequests.getMany(accountId, ids);
}

/** Dismisses notification requests: they are deleted with the notifications they hold. */
export async function dismissRequests(ctx: AppContext, requests: readonly NotificationRequest[]): Promise<void> {
  await ctx.repos.notificationRequests.dismiss(requests);
}
