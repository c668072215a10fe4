import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Notification, NotificationFilter } from "../../db/repositories/notifications.ts";
import type { IdWindow } from "../../lib/pagination.ts";

export type { Notification, NotificationFilter } from "../../db/repositories/notifications.ts";

/**
 * An account's notifications as its routes read and change them (v1 and the grouped v2): the
 * pages, the unread counts after the `notifications` marker, dismissing and clearing.
 */

/** One page of the account's notifications, newest first. */
export function notificationsPage(
  ctx: AppContext,
  accountId: string,
  filter: NotificationFilter,
  window: IdWindow,
): Promise<Notification[]> {
  return ctx.repos.notifications.page(accountId, filter, window);
}

/** The `notifications` marker's last read id, if the account saved one. */
async function lastReadId(ctx: AppContext, accountId: string): Promise<string | undefined> {
  const [marker] = await ctx.repos.markers.list(accountId, ["notifications"]);
  return marker?.lastReadId;
}

/** How many notifications are newer than the account's `notifications` marker, counting at most `limit`. */
export async function unreadNotificationsCount(
  ctx: AppContext,
  accountId: string,
  filter: NotificationFilter,
  limit: number,
): Promise<number> {
  return ctx.repos.notifications.countAfter(accountId, await lastReadId(ctx, accountId), filter, limit);
}

/** One of the account's notifications, or undefined when it has none of that id. */
export function ownNotification(ctx: AppContext, accountId: string, id: string): Promise<Notification | undefined> {
  return ctx.repos.notifications.get(accountId, id);
}

/** Deletes every notification of the account. */
export async function clearNotifications(ctx: AppContext, accountId: string): Promise<void> {
  await ctx.repos.notifications.clear(accountId);
}

/** Deletes one of the account's notifications; false when it had none of that id. */
export function dismissNotification(ctx: AppContext, accountId: string, id: string): Promise<boolean> {
  return ctx.repos.notifications.dismiss(accountId, id);
}

/** One page of notification groups, each given by its latest notification, newest first. */
export function notificationGroupsPage(
  ctx: AppContext,
  accountId: string,
  filter: NotificationFilter,
  window: IdWindow,
  groupedTypes: readonly string[],
): Promise<Notification[]> {
  return ctx.repos.notifications.groupedPage(accountId, filter, window, groupedTypes);
}

/** How many groups have a notification newer than the account's `notifications` marker, at most `limit`. */
export async function unreadNotificationGroupsCount(
  ctx: AppContext,
  accountId: string,
  filter: NotificationFilter,
  limit: number,
  groupedTypes: readonly string[],
): Promise<number> {
  const window = { minId: await lastReadId(ctx, accountId), limit };
  return (await ctx.repos.notifications.groupedPage(accountId, filter, window, groupedTypes)).length;
}

/** The latest notification of one of the account's groups, or undefined when there is no such group. */
export function latestOfNotificationGroup(
  ctx: AppContext,
  accountId: string,
  groupKey: string,
): Promise<Notification | undefined> {
  return ctx.repos.notifications.latestOfGroup(accountId, groupKey);
}

/** Deletes every notification of one of the account's groups. */
export async function dismissNotificationGroup(ctx: AppContext, accountId: string, groupKey: string): Promise<void> {
  await ctx.repos.notifications.dismissGroup(accountId, groupKey);
}

/**
 * One page of a group's notifications (`rows`, for the page links) and the accounts that caused
 * them in that order (`accounts`), those gone left out.
 */
export async function notificationGroupAccountsPage(
  ctx: AppContext,
  accountId: string,
  groupKey: string,
  window: IdWindow,
): Promise<{ rows: Notification[]; accounts: Account[] }> {
  const rows = await ctx.repos.notifications.groupPage(accountId, groupKey, window);
  const byId = new Map((await ctx.repos.accounts.getByIds(rows.map((n) => n.fromAccountId))).map((a) => [a.id, a]));
  return { rows, accounts: rows.flatMap((n) => byId.get(n.fromAccountId) ?? []) };
}
