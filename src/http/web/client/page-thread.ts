import type { Context } from "hono";
import { queueRepliesBackfill } from "../../../federation/resolve/queue.ts";
import { findVisibleStatus } from "../../../services/statuses/find.ts";
import { statusContext } from "../../../services/statuses/thread.ts";
import { statusesJson, statusJson } from "../../../services/statuses/views.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { clientView, requireClient, sendClientPage } from "./layout.ts";
import { orNotFound, rendered } from "./page-shared.ts";
import type { RStatus } from "./render.ts";
import { renderThread } from "./render-pages.ts";

/**
 * `/web/statuses/:id`: the thread as `GET /api/v1/statuses/:id/context` gives it to the viewer
 * (filter context `thread`), the post itself as `GET /api/v1/statuses/:id`; the not-found page
 * where the API answers 404 (or 410 for a deleted post).
 */
export async function threadPage(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireClient(c);
  if (me instanceof Response) return me;
  return orNotFound(c, me, async () => {
    const ctx = c.env.ctx;
    const viewerId = me.account.id;
    const status = await findVisibleStatus(ctx, c.req.param("id") ?? "", viewerId);
    if (!status.local) await queueRepliesBackfill(ctx, status.id);
    const { ancestors, descendants } = await statusContext(ctx, status, viewerId);
    const [focus, json] = await Promise.all([
      statusJson(ctx, status, viewerId),
      statusesJson(ctx, [...ancestors, ...descendants], viewerId, { filterContext: "thread" }),
    ]);
    const above = new Set(ancestors.map((s) => s.id));
    const list = json as unknown as RStatus[];
    const html_ = renderThread(
      list.filter((s) => above.has(s.id)),
      focus as unknown as RStatus,
      list.filter((s) => !above.has(s.id)),
      clientView(c, me, "thread"),
    );
    return sendClientPage(c, me, {
      title: t(c)("client.pages.thread"),
      body: html`<ul class="statuses thread" id="thread" data-status-id="${status.id}">${rendered(html_)}</ul>`,
      context: "thread",
      page: { kind: "thread", statusId: status.id },
    });
  });
}
