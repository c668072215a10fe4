import type { Context } from "hono";
import { tagPageView } from "../../../services/web/public-pages.ts";
import type { HonoEnv } from "../../types.ts";
import { sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { pagination, statusList } from "./components.ts";
import { notFoundPage, readWindow, renderContext } from "./shared.ts";

/** `/tags/:name`: a hashtag's public posts, local and remote, newest first, paged by links. */
export async function tagPage(c: Context<HonoEnv>, name: string): Promise<Response> {
  const ctx = c.env.ctx;
  const view = await tagPageView(ctx, name, readWindow(c));
  if (!view) return notFoundPage(c);
  const rc = renderContext(c);
  const { tr } = rc;
  const path = `/tags/${encodeURIComponent(view.name)}`;
  const title = `#${view.name}`;
  const description = tr("profiles.tag.description", { tag: title });
  const head = html`<link rel="alternate" type="application/rss+xml" href="${path}.rss" title="${tr("profiles.tag.rss_title", { tag: title })}">
`;
  const body = html`<h1>${title}</h1>
<p class="muted">${description}</p>
${statusList(view.statuses, rc, tr("profiles.empty.tag"))}
${pagination(path, view.links, tr)}`;
  return sendPage(c, { title, body, head, size: "wide", description, siteTitle: view.siteTitle });
}
