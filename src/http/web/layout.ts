import type { Context } from "hono";
import { randomToken } from "../../lib/crypto.ts";
import { GANNET_VERSION } from "../../lib/version.ts";
import type { HonoEnv } from "../types.ts";
import { assetUrl } from "./assets.ts";
import { t } from "./i18n/index.ts";
import { html, SafeHtml } from "./pages/html.ts";
import { cookieSaysSignedIn, pageCsrfToken } from "./session.ts";

export interface PageOptions {
  title: string;
  body: SafeHtml;
  status?: number;
  /** `narrow` (forms, the default), `wide` (content, settings) or `bare` (embeds: no header or footer). */
  size?: "narrow" | "wide" | "bare";
  /** Extra `form-action` sources (where a form submission may end up redirecting). */
  formAction?: string[];
  /** Inline script allowed on this page (auto-submitted form_post responses only). */
  script?: string;
  /** Scripts from `/assets/` (names registered in assets.ts), loaded deferred. */
  scripts?: string[];
  /** Extra elements for `<head>` (alternate links, OpenGraph metadata). */
  head?: SafeHtml;
  /** `<meta name="description">`. */
  description?: string;
  /** Asks search engines not to index the page. */
  noindex?: boolean;
  /** Whether other sites may frame the page (embeds only). */
  frameable?: boolean;
  /** Cache-Control (default `no-store`; public pages may allow caching). */
  cacheControl?: string;
  /** The site's title when the page knows the operator's setting (default: SITE_TITLE). */
  siteTitle?: string;
}

function header(c: Context<HonoEnv>, siteTitle: string): SafeHtml {
  const tr = t(c);
  const signedIn = cookieSaysSignedIn(c);
  const csrf = pageCsrfToken(c);
  const account = c.get("webSession")?.account;
  const items = signedIn
    ? html`${account ? html`<li><a href="/@${account.username}">${tr("common.my_profile")}</a></li>` : ""}
<li><a href="/settings">${tr("common.settings")}</a></li>
<li><form method="post" action="/auth/sign_out"><input type="hidden" name="authenticity_token" value="${csrf ?? ""}"><button type="submit" class="link">${tr("common.sign_out")}</button></form></li>`
    : html`<li><a href="/about">${tr("common.about")}</a></li>
<li><a href="/auth/sign_in">${tr("common.sign_in")}</a></li>
<li><a href="/auth/sign_up">${tr("common.sign_up")}</a></li>`;
  return html`<a class="skip" href="#content">${tr("common.skip_to_content")}</a>
<header class="site"><nav aria-label="${tr("common.site_navigation")}"><a class="brand" href="/">${siteTitle}</a><ul>
${items}
</ul></nav></header>`;
}

function footer(c: Context<HonoEnv>): SafeHtml {
  const tr = t(c);
  return html`<footer class="site"><nav aria-label="${tr("common.footer_navigation")}"><ul>
<li><a href="/about">${tr("common.about")}</a></li>
<li><a href="/privacy-policy">${tr("common.privacy_policy")}</a></li>
<li><a href="/terms-of-service">${tr("common.terms_of_service")}</a></li>
<li><a href="/public/local">${tr("common.local_timeline")}</a></li>
<li>${tr("common.powered_by", { software: `Gannet ${GANNET_VERSION}` })}</li>
</ul></nav></footer>`;
}

/** A page as sent: status, headers and the HTML. */
export interface RenderedPage {
  status: number;
  headers: Record<string, string>;
  html: string;
}

/**
 * A complete HTML page in the one layout, with a strict Content-Security-Policy: styles and
 * scripts only from this server's `/assets/` (an inline script only with this response's nonce;
 * no inline handlers), images and media from this server or https, and forms posting only here
 * (plus the client redirect targets the caller names).
 */
export function sendPage(c: Context<HonoEnv>, opts: PageOptions): Response {
  return sendEncoded(c, encodePage(c, opts));
}

/** A page as bytes, ready to send (and to send again, when its caller keeps it). */
export interface EncodedPage {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/**
 * The page `sendPage` sends, as bytes rather than a string: a Response made from a string checks
 * and encodes it in JavaScript (undici's USVString conversion), which costs more than rendering.
 */
export function encodePage(c: Context<HonoEnv>, opts: PageOptions): EncodedPage {
  const page = renderPage(c, opts);
  return { status: page.status, headers: page.headers, bytes: pageBytes(c, page.html) };
}

/** Sends an encoded page. */
export function sendEncoded(c: Context<HonoEnv>, page: EncodedPage): Response {
  return c.body(page.bytes as Uint8Array<ArrayBuffer>, page.status as 200, page.headers);
}

const chunksOf = new WeakMap<Context<HonoEnv>, Buffer[]>();
const CHUNK = /<!--gannet:chunk:(\d+)-->/;

/**
 * A part of this request's page already encoded (a long part kept between requests, such as a
 * timeline's rendered posts): the page holds a placeholder, and its bytes are put in its place
 * when the page is sent, so they are not encoded again with the rest.
 */
export function encodedPart(c: Context<HonoEnv>, bytes: Buffer): SafeHtml {
  let list = chunksOf.get(c);
  if (list === undefined) {
    list = [];
    chunksOf.set(c, list);
  }
  list.push(bytes);
  return new SafeHtml(`<!--gannet:chunk:${list.length - 1}-->`);
}

/** The page's bytes, with the request's encoded parts in place of their placeholders. */
function pageBytes(c: Context<HonoEnv>, html: string): Buffer {
  const chunks = chunksOf.get(c);
  if (chunks === undefined) return Buffer.from(html);
  const pieces = html.split(CHUNK);
  const out: Buffer[] = [];
  // split with a capturing group: text, index, text, index, ..., text.
  for (let i = 0; i < pieces.length; i++) {
    if (i % 2 === 0) out.push(Buffer.from(pieces[i] ?? ""));
    else out.push(chunks[Number(pieces[i])] ?? Buffer.alloc(0));
  }
  return Buffer.concat(out);
}

/**
 * The page `sendPage` sends. Without an inline script it holds no nonce, so for a visitor without
 * a session (no menu, no CSRF token) the same options always give the same bytes.
 */
export function renderPage(c: Context<HonoEnv>, opts: PageOptions): RenderedPage {
  const nonce = opts.script ? randomToken(16) : "";
  const siteTitle = opts.siteTitle ?? c.env.ctx.config.siteTitle;
  const locale = t(c).locale;
  const formAction = ["'self'", ...(opts.formAction ?? [])].join(" ");
  const scripts = opts.scripts ?? [];
  const csp = [
    "default-src 'none'",
    "style-src 'self'",
    opts.script
      ? `script-src ${scripts.length > 0 ? "'self' " : ""}'nonce-${nonce}'`
      : scripts.length > 0
        ? "script-src 'self'"
        : "script-src 'none'",
    "connect-src 'self'",
    "img-src 'self' https: data: blob:",
    "media-src 'self' https:",
    "font-src 'self'",
    "manifest-src 'self'",
    `form-action ${formAction}`,
    opts.frameable ? "frame-ancestors *" : "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
  // As Mastodon's layout: the session's CSRF token for scripts (the admin API takes it as X-CSRF-Token).
  const csrf = pageCsrfToken(c);
  const csrfMeta =
    csrf === undefined
      ? ""
      : html`<meta name="csrf-param" content="authenticity_token">
<meta name="csrf-token" content="${csrf}">
`;
  const size = opts.size ?? "narrow";
  const page = html`<!DOCTYPE html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
${opts.description ? html`<meta name="description" content="${opts.description}">\n` : ""}${opts.noindex ? html`<meta name="robots" content="noindex, noarchive">\n` : ""}${csrfMeta}<title>${opts.title} - ${siteTitle}</title>
<link rel="stylesheet" href="${assetUrl("gannet.css")}">
${scripts.map((s) => html`<script src="${assetUrl(s)}" defer></script>\n`)}${opts.head ?? ""}
</head>
<body>
${size === "bare" ? "" : header(c, siteTitle)}
<main id="content" class="${size}">
${opts.body}
</main>
${size === "bare" ? "" : footer(c)}
${opts.script ? html`<script nonce="${nonce}">${new SafeHtml(opts.script)}</script>` : ""}
</body>
</html>
`;
  const headers: Record<string, string> = {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": csp,
    "Cache-Control": opts.cacheControl ?? "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Content-Language": locale,
  };
  if (!opts.frameable) headers["X-Frame-Options"] = "DENY";
  return { status: opts.status ?? 200, headers, html: page.value };
}
