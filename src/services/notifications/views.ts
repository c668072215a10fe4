import type { AppContext } from "../../context.ts";
import type { Notification } from "../../db/repositories/notifications.ts";
import { notificationsBlocked } from "../../policies/blocks.ts";
import { serializeNotification } from "../../serializers/notification.ts";
import { accountsJson, accountsText } from "../accounts/views.ts";
import { severanceEventsJsonById } from "../moderation/severed-relationships.ts";
import { warningsJsonById } from "../moderation/warnings.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { reportsJsonById } from "../reports/views.ts";
import { filterVisible, statusesJson } from "../statuses/views.ts";
import { JsonBytes, statusWriters } from "../statuses/views-text.ts";

/** What a list of notifications shows, read in a bounded number of queries (see `notificationsJson`). */
async function loadNotifications(ctx: AppContext, notifications: readonly Notification[], viewerId: string) {
  // Nothing from an account the recipient blocks, is blocked by, or mutes with its notifications.
  const relations = await blockMuteRelations(
    ctx,
    viewerId,
    notifications.map((n) => n.fromAccountId),
  );
  const shown = notifications.filter((n) => !notificationsBlocked(n.fromAccountId, relations));
  const statusIds = [...new Set(shown.flatMap((n) => (n.statusId === null ? [] : [n.statusId])))];
  const statuses = await filterVisible(ctx, await ctx.repos.statuses.getByIds(statusIds), viewerId, { keep: "all" });
  const accounts = await ctx.repos.accounts.getByIds([...new Set(shown.map((n) => n.fromAccountId))]);
  // `admin.report`: the report is the cause; one whose report is gone is left out.
  const reports = await reportsJsonById(
    ctx,
    shown.flatMap((n) => (n.type === "admin.report" ? [n.activityId] : [])),
  );
  // `moderation_warning`: the account warning is the cause, left out like a report when gone.
  const warnings = await warningsJsonById(
    ctx,
    shown.flatMap((n) => (n.type === "moderation_warning" ? [n.activityId] : [])),
  );
  // `severed_relationships`: the recipient's share of the event.
  const events = await severanceEventsJsonById(
    ctx,
    shown.flatMap((n) => (n.type === "severed_relationships" ? [n.activityId] : [])),
  );
  return { shown, statuses, accounts, reports, causes: { warnings, events } };
}

/** The notifications to show, each with its account, status (by id), report and warning. */
function assemble<A, S>(
  shown: readonly Notification[],
  accountById: Map<string, A>,
  statusById: Map<string, S>,
  reports: Map<string, Record<string, unknown>>,
  causes: { warnings: Map<string, Record<string, unknown>>; events: Map<string, Record<string, unknown>> },
) {
  return shown.flatMap((n) => {
    const account = accountById.get(n.fromAccountId);
    const status = n.statusId === null ? undefined : statusById.get(n.statusId);
    const report = n.type === "admin.report" ? reports.get(n.activityId) : undefined;
    const warning = n.type === "moderation_warning" ? causes.warnings.get(n.activityId) : undefined;
    const event = n.type === "severed_relationships" ? causes.events.get(n.activityId) : undefined;
    if (account === undefined || (n.statusId !== null && status === undefined)) return [];
    if (n.type === "admin.report" && report === undefined) return [];
    if (n.type === "moderation_warning" && warning === undefined) return [];
    if (n.type === "severed_relationships" && event === undefined) return [];
    return [{ n, account, status, report, warning, event }];
  });
}

/**
 * Notification JSON for the recipient, in a bounded number of queries. A notification whose
 * post the recipient may no longer see (or whose sender is gone) is left out, as Mastodon does, and
 * so is one from an account the recipient blocks or mutes with notifications (the mute may be newer).
 * Statuses a `hide` filter matches are left out, and their notifications with them.
 */
export async function notificationsJson(
  ctx: AppContext,
  notifications: readonly Notification[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  const { shown, statuses, accounts, reports, causes } = await loadNotifications(ctx, notifications, viewerId);
  const statusJson = await statusesJson(ctx, statuses, viewerId, { filterContext: "notifications" });
  const statusById = new Map(statusJson.map((s) => [s.id as string, s]));
  const accountJson = await accountsJson(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountJson[i]]));
  return assemble(shown, accountById, statusById, reports, causes).map((x) =>
    serializeNotification(x.n, x.account, x.status, x.report, x.warning, x.event),
  );
}

// Markers no serialized text can hold: a NUL is always escaped inside JSON strings.
const ACCOUNT_MARK = "\u0000account\u0000";
const STATUS_MARK = "\u0000status\u0000";
const ACCOUNT_MARK_JSON = JSON.stringify(ACCOUNT_MARK);
const STATUS_MARK_JSON = JSON.stringify(STATUS_MARK);

/**
 * `notificationsJson` as one JSON array in UTF-8, statuses and accounts written from their
 * kept texts (services/statuses/views-text.ts): each notification is serializeNotification's
 * JSON with markers where its account and status go.
 */
export async function notificationsBytes(
  ctx: AppContext,
  notifications: readonly Notification[],
  viewerId: string,
): Promise<Buffer> {
  const { shown, statuses, accounts, reports, causes } = await loadNotifications(ctx, notifications, viewerId);
  const statusById = await statusWriters(ctx, statuses, viewerId, { filterContext: "notifications" });
  const accountText = await accountsText(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountText[i]]));
  const out = new JsonBytes();
  out.add("[");
  assemble(shown, accountById, statusById, reports, causes).forEach((x, i) => {
    if (i > 0) out.add(",");
    const writeStatus = x.status;
    const status = writeStatus && (STATUS_MARK as never);
    const json = JSON.stringify(
      serializeNotification(x.n, ACCOUNT_MARK as never, status, x.report, x.warning, x.event),
    );
    const a = json.indexOf(ACCOUNT_MARK_JSON);
    out.add(json.slice(0, a));
    out.kept(x.account);
    const rest = json.slice(a + ACCOUNT_MARK_JSON.length);
    const st = writeStatus ? rest.indexOf(STATUS_MARK_JSON) : -1;
    if (writeStatus && st >= 0) {
      out.add(rest.slice(0, st));
      writeStatus(out);
      out.add(rest.slice(st + STATUS_MARK_JSON.length));
    } else out.add(rest);
  });
  out.add("]");
  return out.finish();
}
