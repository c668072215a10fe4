import type { Context } from "hono";
import { Permission } from "../../../lib/roles.ts";
import { authStamp } from "../../../services/oauth/bearer.ts";
import { webClientToken } from "../../../services/web/client-token.ts";
import type { HonoEnv } from "../../types.ts";
import { requireUser, type SignedIn } from "../guard.ts";
import { en } from "../i18n/en/index.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { type EncodedPage, encodePage, sendEncoded, sendPage } from "../layout.ts";
import { html, SafeHtml } from "../pages/html.ts";
import { composeBox } from "./compose.ts";
import type { ClientView } from "./render.ts";

/** A signed-in user of the web client, with the session's API token. */
export interface ClientUser extends SignedIn {
  /** The session's access token of the first-party app (services/web/client-token.ts). */
  token: string;
}

/** The client's menu: href, label key. */
export const CLIENT_MENU: ReadonlyArray<readonly [string, MessageKey]> = [
  ["/home", "client.home"],
  ["/notifications", "client.notifications"],
  ["/web/public/local", "client.local"],
  ["/web/public", "client.federated"],
  ["/search", "client.search"],
  ["/conversations", "client.conversations"],
  ["/favourites", "client.favourites"],
  ["/bookmarks", "client.bookmarks"],
  ["/lists", "client.lists"],
];

/**
 * The signed-in user of a client page with the session's token; the sign-in redirect without a
 * session, a notice page when the session's token was revoked.
 */
export async function requireClient(c: Context<HonoEnv>): Promise<ClientUser | Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const session = me.session;
  const token = session.id
    ? await webClientToken(c.env.ctx, { nonce: session.nonce, id: session.id, userId: me.user.id })
    : undefined;
  if (!token) {
    const tr = t(c);
    return sendPage(c, {
      title: tr("client.home"),
      body: html`<p class="error" role="alert">${tr("client.token_revoked")}</p>`,
      status: 403,
    });
  }
  return { ...me, token };
}

/** The `client.*` texts of each locale, and their JSON (made once: every page carries them). */
const labelsByLocale = new Map<string, { labels: Record<string, string>; json: string }>();

/** The `client.*` texts of the page's locale, for the renderer (on the server and in the browser). */
function clientLabels(c: Context<HonoEnv>): { labels: Record<string, string>; json: string } {
  const tr = t(c);
  const known = labelsByLocale.get(tr.locale);
  if (known) return known;
  const labels: Record<string, string> = {};
  for (const key of Object.keys(en)) if (key.startsWith("client.")) labels[key] = tr(key as MessageKey);
  const made = { labels, json: JSON.stringify(labels) };
  labelsByLocale.set(tr.locale, made);
  return made;
}

/** What the renderer needs for this page and viewer; `context` is the filter context of its list. */
export function clientView(c: Context<HonoEnv>, me: ClientUser, context?: string): ClientView {
  return { l: clientLabels(c).labels, me: me.account.id, context };
}

export interface ClientPageOptions {
  title: string;
  /** The page's column; a function when it is made only if the page is not kept (`keep`). */
  body: SafeHtml | (() => SafeHtml);
  /** The menu entry to mark as the current page (its href). */
  current?: string;
  /** The filter context of the page's list (`home`, `public`, `notifications`, `thread`, `account`). */
  context?: string;
  status?: number;
  /** Extra data for the page's scripts (`Gannet.page` in the browser). */
  page?: Record<string, unknown>;
  /**
   * Keep the page's bytes for the next request of the same session while nothing it shows
   * changed: `on` is the encoded part the page is made from (a timeline's rendered posts, the same
   * Buffer while the timeline is unchanged), `variant` what else the page depends on (its path
   * and query, the marker); the rest is covered by the database's change stamp.
   */
  keep?: { on: Buffer; variant: string };
}

/** A kept page: what it was made from, and its bytes. */
interface KeptClientPage {
  on: Buffer;
  variant: string;
  stamp: number;
  page: EncodedPage;
}

/** The last pages sent, by session token (a bounded few: 64 pages of some 100 KB each). */
const keptPages = new Map<string, KeptClientPage>();
const KEPT_PAGES_MAX = 64;

/** The page kept for this session and request, while still what would be made now. */
function keptPage(c: Context<HonoEnv>, me: ClientUser, keep: ClientPageOptions["keep"]): EncodedPage | undefined {
  if (keep === undefined) return undefined;
  const kept = keptPages.get(me.token);
  const stamp = authStamp(c.env.ctx);
  if (kept === undefined || stamp === undefined) return undefined;
  if (kept.on !== keep.on || kept.stamp !== stamp || kept.variant !== `${t(c).locale} ${keep.variant}`)
    return undefined;
  return kept.page;
}

function keepPage(c: Context<HonoEnv>, me: ClientUser, keep: ClientPageOptions["keep"], page: EncodedPage): void {
  const stamp = authStamp(c.env.ctx);
  if (keep === undefined || stamp === undefined || page.status !== 200) return;
  keptPages.delete(me.token);
  if (keptPages.size >= KEPT_PAGES_MAX) {
    const oldest = keptPages.keys().next().value;
    if (oldest !== undefined) keptPages.delete(oldest);
  }
  keptPages.set(me.token, { on: keep.on, variant: `${t(c).locale} ${keep.variant}`, stamp, page });
}

/** JSON for a `<script type="application/json">` block (no `<` that could close it). */
const scriptSafe = (json: string): string => json.replace(/</g, "\\u003c");

/**
 * The state the page's scripts read (`#client-state`): the view (its labels' JSON made once per
 * locale), the page's own data and the streaming path.
 */
function stateBlock(c: Context<HonoEnv>, me: ClientUser, opts: ClientPageOptions): SafeHtml {
  const labels = clientLabels(c).json;
  const view = `{"l":${labels},"me":${JSON.stringify(me.account.id)}${opts.context === undefined ? "" : `,"context":${JSON.stringify(opts.context)}`}}`;
  return new SafeHtml(
    scriptSafe(`{"view":${view},"page":${JSON.stringify(opts.page ?? {})},"streaming":"/api/v1/streaming"}`),
  );
}

/** The client's scripts, in load order (each runs only where its elements are). */
export const CLIENT_SCRIPTS = [
  "client-render.js",
  "client-core.js",
  "client-timelines.js",
  "client-pages.js",
  "client-compose.js",
  "client-actions.js",
];

/**
 * A web client page: the menu, the page's column, the compose box, and the state its scripts
 * read (the view's labels, the viewer, the token in `<meta name="gannet-token">`).
 */
export async function sendClientPage(c: Context<HonoEnv>, me: ClientUser, opts: ClientPageOptions): Promise<Response> {
  const kept = keptPage(c, me, opts.keep);
  if (kept !== undefined) return sendEncoded(c, kept);
  const tr = t(c);
  const staff = await c.env.ctx.roles.can(me.user.roleId, Permission.manageReports);
  const links = CLIENT_MENU.map(
    ([href, key]) =>
      html`<li><a href="${href}"${href === opts.current ? html` aria-current="page"` : ""}>${tr(key)}${href === "/notifications" ? html` <span class="unread" hidden></span>` : ""}</a></li>\n`,
  );
  const nav = html`<nav class="client-nav" aria-label="${tr("client.navigation")}"><ul>
${links}<li><a href="/web/accounts/${me.account.id}">${tr("client.profile")}</a></li>
<li><a href="/settings/preferences">${tr("client.settings")}</a></li>
${staff ? html`<li><a href="/admin">${tr("client.moderation")}</a></li>` : ""}
<li><form method="post" action="/auth/sign_out"><input type="hidden" name="authenticity_token" value="${me.csrf}"><button type="submit" class="link">${tr("common.sign_out")}</button></form></li>
</ul></nav>`;
  const body = html`<div class="client">
${nav}
<section class="client-main" aria-labelledby="client-title"><h1 id="client-title">${opts.title}</h1>
<noscript><p class="notice">${tr("client.needs_script")}</p></noscript>
${typeof opts.body === "function" ? opts.body() : opts.body}
</section>
<aside class="client-side">${composeBox(c, me)}</aside>
</div>
<script type="application/json" id="client-state">${stateBlock(c, me, opts)}</script>`;
  const page = encodePage(c, {
    title: opts.title,
    body,
    size: "bare",
    status: opts.status,
    scripts: CLIENT_SCRIPTS,
    noindex: true,
    head: html`<meta name="gannet-token" content="${me.token}">\n`,
  });
  keepPage(c, me, opts.keep, page);
  return sendEncoded(c, page);
}
