import type { Context } from "hono";
import { loadSiteInfo } from "../../../services/instance/site-settings.ts";
import { liveFeedPage } from "../../../services/web/site.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { publicCacheControl, readerOf } from "./common.ts";
import { postItem } from "./posts.ts";

/** Posts per page of a live feed. */
const PER_PAGE = 20;

/**
 * `/public/local` (and `/public`, the federated timeline): public posts, newest first, paged by
 * `max_id` links. Readable by whoever the API's public timeline is readable by (the operator's
 * live feed access settings); others get a 403 page saying why.
 */
export async function liveFeedRoute(c: Context<HonoEnv>, kind: "local" | "all"): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const path = kind === "local" ? "/public/local" : "/public";
  const rawMax = c.req.query("max_id");
  const maxId = rawMax && /^\d{1,20}$/.test(rawMax) ? rawMax : undefined;
  const reader = await readerOf(c);
  const [site, page] = await Promise.all([
    loadSiteInfo(ctx),
    liveFeedPage(ctx, kind, reader?.id, { maxId, limit: PER_PAGE }),
  ]);
  const title = kind === "local" ? tr("site.timeline.local_title") : tr("site.timeline.federated_title");
  if (page.refused) {
    const signIn = page.refused === "signIn";
    return sendPage(c, {
      title: tr("site.timeline.refused_title"),
      siteTitle: site.title,
      status: 403,
      noindex: true,
      body: html`<h1>${tr("site.timeline.refused_title")}</h1>
<p class="notice" role="alert">${signIn ? tr("site.timeline.refused_sign_in") : tr("site.timeline.refused_off")}</p>
${signIn ? html`<p><a class="button" href="/auth/sign_in?return_to=${encodeURIComponent(path)}">${tr("site.timeline.sign_in")}</a></p>` : ""}
<p><a href="/about">${tr("common.about")}</a></p>`,
    });
  }
  const items = page.statuses.flatMap((s) => {
    const author = page.accounts.get(s.accountId);
    return author ? [postItem(c, s, author, ctx.config.localDomain, page.mediaCounts.get(s.id) ?? 0)] : [];
  });
  const intro =
    kind === "local"
      ? tr("site.timeline.local_intro", { title: site.title })
      : tr("site.timeline.federated_intro", { title: site.title });
  const empty = maxId ? tr("site.timeline.end") : tr("site.timeline.empty");
  const nav =
    maxId || page.nextMaxId
      ? html`<nav class="pagination" aria-label="${tr("common.pagination")}">
${maxId ? html`<a href="${path}">${tr("site.timeline.newest")}</a>` : html`<span></span>`}
${page.nextMaxId ? html`<a href="${path}?max_id=${page.nextMaxId}" rel="next">${tr("site.timeline.older")}</a>` : ""}
</nav>`
      : "";
  return sendPage(c, {
    title,
    siteTitle: site.title,
    description: tr("site.timeline.meta_description", { title: site.title }),
    cacheControl: publicCacheControl(c),
    // Older pages are for reading, not for search engines.
    noindex: maxId !== undefined,
    size: "wide",
    body: html`<h1>${title}</h1>
<p class="muted">${intro}</p>
${items.length > 0 ? html`<div class="site-feed">\n${items}</div>` : html`<p>${empty}</p>`}
${nav}`,
  });
}
