import type { Context } from "hono";
import type { Account } from "../../../services/accounts/types.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { cookieSaysSignedIn, loadSession, pageCsrfToken } from "../session.ts";

/** How long a shared cache may keep an anonymous public page. */
const PUBLIC_PAGE_MAX_AGE_S = 60;

/**
 * The signed-in reader of a public page, if any. The session is read (one query) only when the
 * cookie names a user: anonymous visitors cost nothing.
 */
export async function readerOf(c: Context<HonoEnv>): Promise<Account | undefined> {
  if (!cookieSaysSignedIn(c)) return undefined;
  const session = await loadSession(c);
  return session?.user ? session.account : undefined;
}

/**
 * Cache-Control of a public page: shared caches may keep it for a minute when the request carried
 * no session (so the page holds no CSRF token and no signed-in menu); otherwise `no-store`.
 * `Vary` keeps visitors with a session or another language from getting the cached copy.
 */
export function publicCacheControl(c: Context<HonoEnv>): string {
  c.header("Vary", "Cookie, Accept-Language");
  return pageCsrfToken(c) === undefined && !cookieSaysSignedIn(c)
    ? `public, max-age=${PUBLIC_PAGE_MAX_AGE_S}`
    : "no-store";
}

/** The site's 404 page. */
export function notFoundPage(c: Context<HonoEnv>, text?: string): Response {
  const tr = t(c);
  return sendPage(c, {
    title: tr("common.not_found"),
    status: 404,
    noindex: true,
    body: html`<h1>${tr("common.not_found")}</h1>
<p>${text ?? tr("common.not_found_text")}</p>`,
  });
}

/** A date (ISO string or `YYYY-MM-DD`) as the reader's locale writes it, in UTC. */
export function formatDate(locale: string, iso: string): string {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(d);
}

/** A date and time, short, in UTC. */
export function formatDateTime(locale: string, iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(d);
}
