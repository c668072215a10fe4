import type { AppContext } from "../../context.ts";
import type { Notification } from "../../db/repositories/notifications.ts";
import { notificationsBlocked } from "../../policies/blocks.ts";
import { serializeNotification } from "../../serializers/notification.ts";
import { accountsJson } from "../accounts/views.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { reportsJsonById } from "../reports/views.ts";
import { filterVisible, statusesJson } from "../statuses/views.ts";

/**
 * Notification JSON for the recipient, in a bounded number of queries. A notification whose
 * post the recipient may no longer see (or whose sender is gone) is left out, as Mastodon does, and
 * so is one from an account the recipient blocks or mutes with notifications (the mute may be newer).
 */
export async function notificationsJson(
  ctx: AppContext,
  notifications: readonly Notification[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  // Nothing from an account the recipient blocks, is blocked by, or mutes with its notifications.
  const relations = await blockMuteRelations(
    ctx,
    viewerId,
    notifications.map((n) => n.fromAccountId),
  );
  notifications = notifications.filter((n) => !notificationsBlocked(n.fromAccountId, relations));
  const statusIds = [...new Set(notifications.flatMap((n) => (n.statusId === null ? [] : [n.statusId])))];
  const statuses = await filterVisible(ctx, await ctx.repos.statuses.getByIds(statusIds), viewerId, { keep: "all" });
  // Those a `hide` filter matches are left out, and their notifications with them.
  const statusJson = await statusesJson(ctx, statuses, viewerId, { filterContext: "notifications" });
  const statusById = new Map(statusJson.map((s) => [s.id as string, s]));
  const accounts = await ctx.repos.accounts.getByIds([...new Set(notifications.map((n) => n.fromAccountId))]);
  const accountJson = await accountsJson(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountJson[i]]));
  // `admin.report`: the report is the cause; one whose report is gone is left out.
  const reports = await reportsJsonById(
    ctx,
    notifications.flatMap((n) => (n.type === "admin.report" ? [n.activityId] : [])),
  );
  return notifications.flatMap((n) => {
    const account = accountById.get(n.fromAccountId);
    const status = n.statusId === null ? undefined : statusById.get(n.statusId);
    const report = n.type === "admin.report" ? reports.get(n.activityId) : undefined;
    if (account === undefined || (n.statusId !== null && status === undefined)) return [];
    if (n.type === "admin.report" && report === undefined) return [];
    return [serializeNotification(n, account, status, report)];
  });
}
