import type { AppContext } from "../../context.ts";
import type { Notification } from "../../db/repositories/notifications.ts";
import { serializeNotification } from "../../serializers/notification.ts";
import { accountsJson } from "../accounts/views.ts";
import { filterVisible, statusesJson } from "../statuses/views.ts";

/**
 * Notification JSON for the recipient, in a bounded number of queries. A notification whose
 * post the recipient may no longer see (or whose sender is gone) is left out, as Mastodon does.
 */
export async function notificationsJson(
  ctx: AppContext,
  notifications: readonly Notification[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  const statusIds = [...new Set(notifications.flatMap((n) => (n.statusId === null ? [] : [n.statusId])))];
  const statuses = await filterVisible(ctx, await ctx.repos.statuses.getByIds(statusIds), viewerId);
  const statusJson = await statusesJson(ctx, statuses, viewerId);
  const statusById = new Map(statuses.map((s, i) => [s.id, statusJson[i]]));
  const accounts = await ctx.repos.accounts.getByIds([...new Set(notifications.map((n) => n.fromAccountId))]);
  const accountJson = await accountsJson(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountJson[i]]));
  return notifications.flatMap((n) => {
    const account = accountById.get(n.fromAccountId);
    const status = n.statusId === null ? undefined : statusById.get(n.statusId);
    if (account === undefined || (n.statusId !== null && status === undefined)) return [];
    return [serializeNotification(n, account, status)];
  });
}
