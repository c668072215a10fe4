import type { AppContext } from "../../context.ts";
import type { GroupData, Notification } from "../../db/repositories/notifications.ts";
import {
  type NotificationGroupView,
  serializeNotificationGroup,
  serializePartialAccount,
} from "../../serializers/notification.ts";
import { accountsJson } from "../accounts/views.ts";
import { severanceEventsJsonById } from "../moderation/severed-relationships.ts";
import { warningsJsonById } from "../moderation/warnings.ts";
import { reportsJsonById } from "../reports/views.ts";
import { filterVisible, statusesJson } from "../statuses/views.ts";
import { GROUPABLE_TYPES } from "./group-key.ts";

/** Types grouped when the client does not say: every groupable type, as Mastodon. */
export const DEFAULT_GROUPED_TYPES: readonly string[] = GROUPABLE_TYPES;

export type ExpandAccounts = "full" | "partial_avatars";

export interface GroupsOptions {
  groupedTypes: readonly string[];
  expandAccounts: ExpandAccounts;
  /** Listing a page: groups count up to its newest notification and carry `page_*` fields. */
  paginated: boolean;
}

/**
 * Mastodon's GroupedNotificationsResults for one notification per group (`representatives`,
 * newest first), in a bounded number of queries: the groups, and the accounts and statuses they
 * name, each once. A group whose post the recipient may no longer see is left out (as v1 leaves
 * out such a notification). With `partial_avatars`, only each group's first account is whole;
 * the other sample accounts come as PartialAccountWithAvatar.
 */
export async function groupedNotificationsJson(
  ctx: AppContext,
  representatives: readonly Notification[],
  viewerId: string,
  opts: GroupsOptions,
): Promise<Record<string, unknown>> {
  const isGrouped = (n: Notification) => opts.groupedTypes.includes(n.type) && !n.groupKey.startsWith("ungrouped-");
  const range =
    opts.paginated && representatives.length > 0
      ? { minId: representatives.at(-1)?.id as string, maxId: representatives[0].id }
      : undefined;
  const data = await ctx.repos.notifications.groupsData(
    viewerId,
    [...new Set(representatives.filter(isGrouped).map((n) => n.groupKey))],
    range,
  );
  const views: NotificationGroupView[] = representatives.map((n) => {
    const g: GroupData | undefined = isGrouped(n) ? data.get(n.groupKey) : undefined;
    return g
      ? {
          groupKey: n.groupKey,
          type: n.type,
          count: g.count,
          mostRecentId: g.mostRecentId,
          pageMinId: range ? (g.pageMinId ?? n.id) : undefined,
          latestAt: range ? g.latestAt : undefined,
          sampleAccountIds: g.sampleAccountIds,
          statusId: n.statusId,
        }
      : {
          groupKey: `ungrouped-${n.id}`,
          type: n.type,
          count: 1,
          mostRecentId: n.id,
          pageMinId: range ? n.id : undefined,
          latestAt: range ? n.createdAt : undefined,
          sampleAccountIds: [n.fromAccountId],
          statusId: n.statusId,
        };
  });

  const statusIds = [...new Set(views.flatMap((v) => (v.statusId === null ? [] : [v.statusId])))];
  // As v1: statuses of accounts the viewer mutes without their notifications stay (the senders
  // the viewer blocks or mutes with notifications are left out in SQL already).
  const statuses = await filterVisible(ctx, await ctx.repos.statuses.getByIds(statusIds), viewerId, { keep: "all" });
  const accounts = await ctx.repos.accounts.getByIds([...new Set(views.flatMap((v) => v.sampleAccountIds))]);
  const known = new Set(accounts.map((a) => a.id));
  // Statuses a `hide` filter matches are left out, and their groups with them.
  const statusJson = await statusesJson(ctx, statuses, viewerId, { filterContext: "notifications" });
  const visibleStatuses = new Set(statusJson.map((s) => s.id as string));
  // `admin.report` groups (always of one) carry their report; one whose report is gone is left out.
  const reportOf = new Map(representatives.flatMap((n) => (n.type === "admin.report" ? [[n.id, n.activityId]] : [])));
  const reports = await reportsJsonById(ctx, [...reportOf.values()]);
  // `moderation_warning` groups (always of one) carry their AccountWarning, likewise.
  const warningOf = new Map(
    representatives.flatMap((n) => (n.type === "moderation_warning" ? [[n.id, n.activityId]] : [])),
  );
  const warnings = await warningsJsonById(ctx, [...warningOf.values()]);
  // `severed_relationships` groups (of one) carry the recipient's share of the event.
  const eventOf = new Map(
    representatives.flatMap((n) => (n.type === "severed_relationships" ? [[n.id, n.activityId]] : [])),
  );
  const events = await severanceEventsJsonById(ctx, [...eventOf.values()]);
  const groups = views
    .map((v) => {
      const reportId = reportOf.get(v.mostRecentId);
      const report = reportId === undefined ? undefined : reports.get(reportId);
      const warningId = warningOf.get(v.mostRecentId);
      const moderationWarning = warningId === undefined ? undefined : warnings.get(warningId);
      const eventId = eventOf.get(v.mostRecentId);
      const event = eventId === undefined ? undefined : events.get(eventId);
      const sampleAccountIds = v.sampleAccountIds.filter((id) => known.has(id));
      return { ...v, sampleAccountIds, report, moderationWarning, event };
    })
    .filter(
      (v) =>
        v.sampleAccountIds.length > 0 &&
        (v.statusId === null || visibleStatuses.has(v.statusId)) &&
        (v.type !== "admin.report" || v.report !== undefined) &&
        (v.type !== "moderation_warning" || v.moderationWarning !== undefined) &&
        (v.type !== "severed_relationships" || v.event !== undefined),
    );

  // Accounts given whole, and (partial_avatars) the others, each once.
  const whole =
    opts.expandAccounts === "partial_avatars"
      ? new Set(groups.map((g) => g.sampleAccountIds[0]))
      : new Set(groups.flatMap((g) => g.sampleAccountIds));
  const partial =
    opts.expandAccounts === "partial_avatars"
      ? new Set(groups.flatMap((g) => g.sampleAccountIds.slice(1)).filter((id) => !whole.has(id)))
      : new Set<string>();
  const accountJson = await accountsJson(ctx, accounts);
  const jsonById = new Map(accounts.map((a, i) => [a.id, accountJson[i]]));
  const pick = (ids: Set<string>) => [...ids].flatMap((id) => jsonById.get(id) ?? []) as Record<string, unknown>[];

  const usedStatusIds = new Set(groups.flatMap((g) => (g.statusId === null ? [] : [g.statusId])));

  const out: Record<string, unknown> = { accounts: pick(whole) };
  if (opts.expandAccounts === "partial_avatars") out.partial_accounts = pick(partial).map(serializePartialAccount);
  out.statuses = statusJson.filter((s) => usedStatusIds.has(s.id as string));
  out.notification_groups = groups.map(serializeNotificationGroup);
  return out;
}
