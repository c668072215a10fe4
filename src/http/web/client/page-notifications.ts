import type { Context } from "hono";
import { getMarkers } from "../../../services/markers.ts";
import { DEFAULT_GROUPED_TYPES, groupedNotificationsJson } from "../../../services/notifications/groups.ts";
import { notificationGroupsPage } from "../../../services/notifications/inbox.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { clientView, requireClient, sendClientPage } from "./layout.ts";
import { loadMore, rendered, tabs } from "./page-shared.ts";
import { type RGrouped, renderNotificationGroups } from "./render-pages.ts";

/** Groups on the first render (as `GET /api/v2/notifications`' default). */
const LIMIT = 40;

/**
 * `/notifications`: the grouped notifications as `GET /api/v2/notifications` gives them, those
 * newer than the `notifications` marker highlighted; `?filter=mentions` for mentions only.
 */
export async function notificationsPage(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireClient(c);
  if (me instanceof Response) return me;
  const ctx = c.env.ctx;
  const tr = t(c);
  const mentions = c.req.query("filter") === "mentions";
  const viewerId = me.account.id;
  const [marker] = await getMarkers(ctx, viewerId, ["notifications"]);
  const lastReadId = marker?.lastReadId ?? null;
  const rows = await notificationGroupsPage(
    ctx,
    viewerId,
    mentions ? { types: ["mention"] } : {},
    { limit: LIMIT },
    DEFAULT_GROUPED_TYPES,
  );
  const json = (await groupedNotificationsJson(ctx, rows, viewerId, {
    groupedTypes: DEFAULT_GROUPED_TYPES,
    expandAccounts: "full",
    paginated: true,
  })) as unknown as RGrouped;
  const view = clientView(c, me, "notifications");
  const oldest = json.notification_groups.at(-1);
  const next =
    rows.length >= LIMIT && oldest
      ? `/api/v2/notifications?max_id=${encodeURIComponent(oldest.page_min_id ?? oldest.most_recent_notification_id)}${mentions ? "&types[]=mention" : ""}`
      : undefined;
  const body = html`${tabs(tr("client.pages.notifications_tabs"), [
    ["/notifications", tr("client.pages.tab_all"), !mentions],
    ["/notifications?filter=mentions", tr("client.pages.tab_mentions"), mentions],
  ])}
<p class="notifications-actions"><button type="button" id="mark-all-read">${tr("client.pages.mark_all_read")}</button></p>
<ul class="notifications" id="notifications" data-filter="${mentions ? "mentions" : "all"}">${rendered(renderNotificationGroups(json, view, lastReadId, true))}</ul>
${loadMore(c, "notifications", "notifications", next)}`;
  return sendClientPage(c, me, {
    title: tr("client.notifications"),
    body,
    current: "/notifications",
    context: "notifications",
    page: { kind: "notifications", lastReadId, filter: mentions ? "mentions" : "all" },
  });
}
