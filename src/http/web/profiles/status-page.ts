import type { Context } from "hono";
import { keptPage, type PageDeps, statusDeps } from "../../../services/web/page-cache.ts";
import { embedView, statusPageView } from "../../../services/web/public-pages.ts";
import type { HonoEnv } from "../../types.ts";
import { type PageOptions, sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { type RenderContext, statusCard } from "./components.ts";
import { accountTitle, openGraph, shownName, statusDescription, statusImage } from "./components-account.ts";
import { fullAcct, truncate } from "./format.ts";
import { alternate } from "./negotiation.ts";
import { gonePage, notFoundPage, type PageOutcome, renderContext, sendOutcome, siteTitleOf } from "./shared.ts";

/**
 * A post's page, `/@user/:id`: the post with the thread an anonymous reader may see (ancestors
 * above, replies below), OpenGraph metadata and the oEmbed discovery link.
 */
export async function statusPage(c: Context<HonoEnv>, username: string, id: string): Promise<Response> {
  const ctx = c.env.ctx;
  const rc = renderContext(c);
  const key = `status:${rc.tr.locale}:${username.toLowerCase()}:${id}`;
  const out = await keptPage<PageOutcome>(
    ctx,
    key,
    () => siteTitleOf(ctx),
    () => renderStatus(c, rc, username, id),
  );
  return sendOutcome(c, out);
}

async function renderStatus(
  c: Context<HonoEnv>,
  rc: RenderContext,
  username: string,
  id: string,
): Promise<{ value: PageOutcome; deps?: PageDeps }> {
  const ctx = c.env.ctx;
  const found = await statusPageView(ctx, username, id);
  if (found.state === "missing") return { value: { missing: true } };
  if (found.state !== "ok") return { value: { gone: found.state } };
  const { status, ancestors, descendants, siteTitle } = found.view;
  const deps: PageDeps = { keys: [`a${status.account.id}`], hasPoll: false, siteTitle };
  statusDeps([...ancestors, status, ...descendants], deps);
  const { tr } = rc;
  const a = status.account;
  const pageUrl = status.url ?? `${ctx.config.baseUrl}/@${a.username}/${status.id}`;
  const description = statusDescription(status, rc);
  const image = statusImage(status);
  const oembed = `/api/oembed?${new URLSearchParams({ url: pageUrl })}`;
  const head = html`${alternate(c, status.uri)}<link rel="alternate" type="application/json+oembed" href="${oembed}">
<link rel="alternate" type="application/rss+xml" href="/@${a.username}.rss" title="${tr("profiles.rss_title", { name: shownName(a) })}">
${openGraph({
  title: accountTitle(a, rc.localDomain),
  description,
  image: image.url,
  url: pageUrl,
  type: "article",
  siteName: siteTitle,
  username: fullAcct(a.acct, rc.localDomain).slice(1),
  largeImage: image.large,
  publishedTime: status.created_at,
})}`;
  const body = html`<h1 class="visually-hidden">${tr("profiles.status.title", { name: shownName(a) })}</h1>
<div class="thread">
${ancestors.length > 0 ? html`<div class="ancestors">${ancestors.map((s) => statusCard(s, rc))}</div>` : ""}
${statusCard(status, rc, { focal: true })}
${
  descendants.length > 0
    ? html`<section class="descendants" aria-labelledby="replies-heading"><h2 id="replies-heading">${tr("profiles.status.replies_heading")}</h2>
${descendants.map((s) => statusCard(s, rc))}</section>`
    : ""
}
</div>`;
  const page: PageOptions = {
    title: tr("profiles.status.page_title", { name: shownName(a), text: truncate(description, 80) }),
    body,
    head,
    size: "wide",
    description,
    noindex: a.noindex === true,
    siteTitle,
  };
  return { value: { page, uri: status.uri }, deps };
}

/**
 * `/@user/:id/embed`: one post, bare (no site header or footer) and frameable by any site, for
 * oEmbed's iframe. Posts anyone may read only (public or unlisted, as Mastodon's embeds).
 */
export async function embedPage(c: Context<HonoEnv>, username: string, id: string): Promise<Response> {
  const found = await embedView(c.env.ctx, username, id);
  if (found.state === "missing") return notFoundPage(c, { bare: true });
  if (found.state !== "ok") return gonePage(c, found.state, true);
  const status = found.view;
  const rc = renderContext(c, true);
  const a = status.account;
  const title = rc.tr("profiles.status.title", { name: shownName(a) });
  return sendPage(c, {
    title,
    body: html`<h1 class="visually-hidden">${title}</h1>
<div class="embed">${statusCard(status, rc, { focal: true })}</div>`,
    size: "bare",
    frameable: true,
    noindex: true,
  });
}
