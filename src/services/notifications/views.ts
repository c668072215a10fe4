import type { AppContext } from "../../context.ts";
import type { Notification } from "../../db/repositories/notifications.ts";
import { notificationsBlocked } from "../../policies/blocks.ts";
import { serializeNotification } from "../../serializers/notification.ts";
import { accountsJson, accountsText } from "../accounts/views.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { reportsJsonById } from "../reports/views.ts";
import { filterVisible, statusesJson } from "../statuses/views.ts";
import { statusTexts } from "../statuses/views-text.ts";

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
  return { shown, statuses, accounts, reports };
}

/** The notifications to show, each with its account, status (by id) and report. */
function assemble<T>(
  shown: readonly Notification[],
  accountById: Map<string, T>,
  statusById: Map<string, T>,
  reports: Map<string, Record<string, unknown>>,
) {
  return shown.flatMap((n) => {
    const account = accountById.get(n.fromAccountId);
    const status = n.statusId === null ? undefined : statusById.get(n.statusId);
    const report = n.type === "admin.report" ? reports.get(n.activityId) : undefined;
    if (account === undefined || (n.statusId !== null && status === undefined)) return [];
    if (n.type === "admin.report" && report === undefined) return [];
    return [{ n, account, status, report }];
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
  const { shown, statuses, accounts, reports } = await loadNotifications(ctx, notifications, viewerId);
  const statusJson = await statusesJson(ctx, statuses, viewerId, { filterContext: "notifications" });
  const statusById = new Map(statusJson.map((s) => [s.id as string, s]));
  const accountJson = await accountsJson(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountJson[i]]));
  return assemble(shown, accountById, statusById, reports).map((x) =>
    serializeNotification(x.n, x.account, x.status, x.report),
  );
}

// Markers no serialized text can hold: a NUL is always escaped inside JSON strings.
const ACCOUNT_MARK = "\u0000account\u0000";
const STATUS_MARK = "\u0000status\u0000";
const ACCOUNT_MARK_JSON = JSON.stringify(ACCOUNT_MARK);
const STATUS_MARK_JSON = JSON.stringify(STATUS_MARK);

/** `json` with the first `mark` replaced by `text` (unchanged when there is none). */
function spliceText(json: string, mark: string, text: string): string {
  const at = json.indexOf(mark);
  return at < 0 ? json : json.slice(0, at) + text + json.slice(at + mark.length);
}

/** `notificationsJson` as one JSON array text, statuses and accounts from the kept texts (views-text.ts). */
export async function notificationsText(
  ctx: AppContext,
  notifications: readonly Notification[],
  viewerId: string,
): Promise<string> {
  const { shown, statuses, accounts, reports } = await loadNotifications(ctx, notifications, viewerId);
  const texts = await statusTexts(ctx, statuses, viewerId, { filterContext: "notifications" });
  const statusById = new Map(texts.map((s) => [s.id, s.text]));
  const accountText = await accountsText(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountText[i]]));
  const items = assemble(shown, accountById, statusById, reports).map((x) => {
    // serializeNotification's own JSON, with the account's and status's texts put in place of markers.
    const json = JSON.stringify(
      serializeNotification(
        x.n,
        ACCOUNT_MARK as never,
        x.status === undefined ? undefined : (STATUS_MARK as never),
        x.report,
      ),
    );
    return spliceText(spliceText(json, ACCOUNT_MARK_JSON, x.account), STATUS_MARK_JSON, x.status ?? "");
  });
  return `[${items.join(",")}]`;
}
