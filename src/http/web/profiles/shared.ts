import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AppContext } from "../../../context.ts";
import { isId } from "../../../lib/ids.ts";
import type { IdWindow } from "../../../lib/pagination.ts";
import { loadSiteInfo } from "../../../services/instance/site-settings.ts";
import { type TtlCached, ttlCached } from "../../../services/instance/ttl-cache.ts";
import { PAGE_SIZE } from "../../../services/web/public-pages.ts";
import { DOCUMENT_TTL_MS } from "../../api/v1/instance/documents.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { type PageOptions, renderPage, sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { SESSION_COOKIE } from "../session.ts";
import type { RenderContext } from "./components.ts";
import { alternate } from "./negotiation.ts";

/** What the components need, for this request. */
export function renderContext(c: Context<HonoEnv>, embed = false): RenderContext {
  return { tr: t(c), localDomain: c.env.ctx.config.localDomain, embed };
}

/** The page window of `?max_id=` / `?min_id=` (anything that is not an id is ignored, as the API does). */
export function readWindow(c: Context<HonoEnv>): IdWindow {
  const maxId = c.req.query("max_id");
  const minId = c.req.query("min_id");
  return {
    maxId: isId(maxId) ? maxId : undefined,
    minId: isId(minId) && !isId(maxId) ? minId : undefined,
    limit: PAGE_SIZE,
  };
}

/** The 404 page. */
export function notFoundPage(c: Context<HonoEnv>, opts: { bare?: boolean } = {}): Response {
  const tr = t(c);
  return sendPage(c, {
    title: tr("common.not_found"),
    body: html`<h1>${tr("common.not_found")}</h1>
<p>${tr("common.not_found_text")}</p>`,
    status: 404,
    size: opts.bare ? "bare" : "narrow",
    noindex: true,
  });
}

/** The 410 page of a suspended or deleted account, or of a deleted post. */
export function gonePage(c: Context<HonoEnv>, what: "suspended" | "deleted" | "gone", bare = false): Response {
  const tr = t(c);
  const [title, text] =
    what === "suspended"
      ? [tr("profiles.gone.suspended"), tr("profiles.gone.suspended_text")]
      : what === "deleted"
        ? [tr("profiles.gone.deleted"), tr("profiles.gone.deleted_text")]
        : [tr("profiles.gone.status"), tr("profiles.gone.status_text")];
  return sendPage(c, {
    title,
    body: html`<h1>${title}</h1>
<p>${text}</p>`,
    status: 410,
    size: bare ? "bare" : "narrow",
    noindex: true,
  });
}

/**
 * What a public page renders to: the page with its ActivityPub twin, or a 404 or 410 outcome.
 * A kept page also keeps its bytes as sent to visitors without a session (`anonymous`).
 */
export type PageOutcome =
  | { page: PageOptions; uri: string; anonymous?: { status: number; headers: Record<string, string>; body: Buffer } }
  | { missing: true }
  | { gone: "suspended" | "deleted" | "gone" };

/**
 * Answers an outcome (the page's `alternate` headers set again, for a kept page). A visitor
 * without a session gets the same bytes as every other such visitor: they are made once.
 */
export function sendOutcome(c: Context<HonoEnv>, out: PageOutcome): Response {
  if ("missing" in out) return notFoundPage(c);
  if ("gone" in out) return gonePage(c, out.gone);
  alternate(c, out.uri);
  if (getCookie(c, SESSION_COOKIE) !== undefined) return sendPage(c, out.page);
  if (out.anonymous === undefined) {
    const page = renderPage(c, out.page);
    out.anonymous = { status: page.status, headers: page.headers, body: Buffer.from(page.html) };
  }
  const { status, headers, body } = out.anonymous;
  return c.body(body as Uint8Array<ArrayBuffer>, status as 200, headers);
}

const titles = new WeakMap<AppContext, TtlCached<string>>();

/**
 * The site's title as pages show it, read at most as often as the instance documents are
 * (their cache time), since a kept page is checked against it on every use.
 */
export function siteTitleOf(ctx: AppContext): Promise<string> {
  let title = titles.get(ctx);
  if (title === undefined) {
    const ttl = Math.min(DOCUMENT_TTL_MS, ctx.config.instanceStatsCacheSeconds * 1000);
    title = ttlCached(ttl, async () => (await loadSiteInfo(ctx)).title);
    titles.set(ctx, title);
  }
  return title.get();
}
