import type { Context } from "hono";
import type { Account, User } from "../../services/accounts/types.ts";
import { readPageParams } from "../oauth/page-params.ts";
import type { Params } from "../oauth/params.ts";
import type { HonoEnv } from "../types.ts";
import { t } from "./i18n/index.ts";
import { errorPage } from "./pages/notices.ts";
import { checkCsrf, csrfToken, loadSession, type WebSession } from "./session.ts";

/** A signed-in browser session, with the CSRF token its forms carry. */
export interface SignedIn {
  session: WebSession & { user: User; account: Account };
  user: User;
  account: Account;
  csrf: string;
}

/** Where the sign-in form sends the browser back to: this page (path and query). */
function hereForReturn(c: Context<HonoEnv>): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}

/**
 * The page a form was posted from (its same-origin `Referer`), so signing in again goes back to a
 * page rather than to a POST-only address; the settings when the browser sent no such header.
 */
function formPage(c: Context<HonoEnv>): string {
  const referer = c.req.header("referer");
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.origin === new URL(c.req.url).origin) return `${from.pathname}${from.search}`;
    } catch {
      // not a URL: fall through
    }
  }
  return "/settings";
}

/**
 * The signed-in user of a page, or a redirect to the sign-in form that comes back here (a form
 * posted without a session goes back to the page it was posted from instead).
 */
export async function requireUser(c: Context<HonoEnv>): Promise<SignedIn | Response> {
  const session = await loadSession(c);
  if (!session?.user || !session.account) {
    const back = c.req.method === "GET" ? hereForReturn(c) : formPage(c);
    return c.redirect(`/auth/sign_in?return_to=${encodeURIComponent(back)}`, 302);
  }
  const s = session as SignedIn["session"];
  return { session: s, user: s.user, account: s.account, csrf: csrfToken(c, s) };
}

/**
 * The parameters of a posted form once its CSRF token matches the session; otherwise the 422
 * "form has expired" page. `session` defaults to the request's session.
 */
export async function readForm(c: Context<HonoEnv>, session?: WebSession): Promise<Params | Response> {
  const params = await readPageParams(c);
  if (params instanceof Response) return params;
  const s = session ?? (await loadSession(c));
  if (!checkCsrf(c, s, params.authenticity_token)) {
    const tr = t(c);
    return errorPage(c, 422, tr("common.form_expired"), tr("common.form_expired_text"));
  }
  return params;
}

/** A text field of a form (anything else reads as empty), cut to `max` characters. */
export function field(params: Params, name: string, max = 10_000): string {
  const v = params[name];
  return typeof v === "string" ? v.slice(0, max) : "";
}

/** A checkbox: checked when sent with a value other than 0/false. */
export function checked(params: Params, name: string): boolean {
  const v = params[name];
  const last = Array.isArray(v) ? v[v.length - 1] : v;
  return last !== undefined && last !== "0" && last !== "false" && last !== "";
}
