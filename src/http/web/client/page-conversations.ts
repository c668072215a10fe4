import type { Context } from "hono";
import { conversationsPage as pageOfConversations } from "../../../services/conversations/manage.ts";
import { conversationsJson } from "../../../services/conversations/views.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { clientView, requireClient, sendClientPage } from "./layout.ts";
import { loadMore, rendered } from "./page-shared.ts";
import { type RConversation, renderConversations } from "./render-pages.ts";

const LIMIT = 20;

/**
 * `/conversations`: the direct conversations as `GET /api/v1/conversations` gives them; opening
 * one marks it read (`POST /api/v1/conversations/:id/read`, from the page's script).
 */
export async function conversationsPage(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireClient(c);
  if (me instanceof Response) return me;
  const ctx = c.env.ctx;
  const viewerId = me.account.id;
  const rows = await pageOfConversations(ctx, viewerId, { limit: LIMIT });
  const json = (await conversationsJson(ctx, rows, viewerId)) as unknown as RConversation[];
  const last = rows.at(-1);
  const next = rows.length >= LIMIT && last ? `/api/v1/conversations?max_id=${last.lastStatusId}` : undefined;
  const view = clientView(c, me, "thread");
  return sendClientPage(c, me, {
    title: t(c)("client.conversations"),
    body: html`<ul class="conversations" id="conversations">${rendered(renderConversations(json, view))}</ul>
${loadMore(c, "conversations", "conversations", next)}`,
    current: "/conversations",
    context: "thread",
    page: { kind: "conversations" },
  });
}
