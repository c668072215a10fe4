import type { Context, Hono } from "hono";
import { formActionSource } from "../../services/oauth/redirect-uris.ts";
import { checkPasswordSignIn, markSignedIn } from "../../services/oauth/sign-in.ts";
import { clientIpOf } from "../middleware/client-ip.ts";
import { throttle } from "../middleware/rate-limit.ts";
import type { HonoEnv } from "../types.ts";
import { errorPage } from "../web/pages/notices.ts";
import { signedInPage, signInPage } from "../web/pages/sign-in.ts";
import {
  anonymousSession,
  checkCsrf,
  csrfToken,
  endSession,
  ensureSession,
  loadSession,
  startSession,
} from "../web/session.ts";
import { readPageParams } from "./page-params.ts";
import { safeReturnTo } from "./params.ts";

const FIVE_MIN = 5 * 60 * 1000;
const AFTER_SIGN_IN = "/auth/sign_in";

/**
 * When `return_to` resumes an authorization, the sign-in form submission may end in a redirect
 * to the client (an auto-approved request), which the page's CSP form-action must allow.
 */
function formActionFor(returnTo: string | undefined): string[] {
  if (!returnTo?.startsWith("/oauth/authorize?")) return [];
  const redirectUri = new URLSearchParams(returnTo.slice(returnTo.indexOf("?") + 1)).get("redirect_uri");
  const source = redirectUri ? formActionSource(redirectUri) : null;
  return source ? [source] : [];
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

async function signIn(c: Context<HonoEnv>): Promise<Response> {
  const params = await readPageParams(c);
  if (params instanceof Response) return params;
  const ctx = c.env.ctx;
  const returnTo = safeReturnTo(params.return_to);
  const email = str(params.email).slice(0, 320);
  const formAction = formActionFor(returnTo);
  const session = await loadSession(c);
  if (!checkCsrf(c, session, params.authenticity_token)) {
    const fresh = anonymousSession(c);
    return signInPage(c, {
      csrf: csrfToken(c, fresh),
      returnTo,
      email,
      formAction,
      status: 422,
      error: "Your session has expired or the form was sent from another site. Please try again.",
    });
  }
  const again = (status: number, error: string) =>
    signInPage(c, { csrf: csrfToken(c, session!), returnTo, email, formAction, status, error });

  const checked = await checkPasswordSignIn(ctx, email, str(params.password));
  // One message for an unknown e-mail and a wrong password: the form must not reveal who has an account.
  if ("problem" in checked) {
    return checked.problem === "invalid"
      ? again(401, "Invalid e-mail address or password.")
      : again(403, "Your login is currently disabled. Contact the server's staff for help.");
  }
  const { user, account } = checked;
  await startSession(c, user, account);
  await markSignedIn(ctx, user, clientIpOf(c));
  return c.redirect(returnTo ?? AFTER_SIGN_IN, 302);
}

async function signOut(c: Context<HonoEnv>): Promise<Response> {
  const params = await readPageParams(c);
  if (params instanceof Response) return params;
  const session = await loadSession(c);
  if (!checkCsrf(c, session, params.authenticity_token)) {
    return errorPage(
      c,
      422,
      "The form has expired",
      "Your session has expired or the form was sent from another site.",
    );
  }
  endSession(c);
  return c.redirect(safeReturnTo(params.return_to) ?? AFTER_SIGN_IN, 302);
}

/** The browser session: sign-in form, sign-in, sign-out. */
export function sessionRoutes(app: Hono<HonoEnv>): void {
  app.get("/auth/sign_in", async (c) => {
    const session = await ensureSession(c);
    const returnTo = safeReturnTo(c.req.query("return_to"));
    if (session.account) {
      if (returnTo) return c.redirect(returnTo, 302);
      return signedInPage(c, session.account.username, csrfToken(c, session));
    }
    return signInPage(c, { csrf: csrfToken(c, session), returnTo, formAction: formActionFor(returnTo) });
  });
  // Mastodon's limit on sign-in attempts: 25 per 5 minutes per IP (shared with the password grant).
  app.post("/auth/sign_in", throttle("sign_in", 25, FIVE_MIN, "ip"), signIn);
  app.post("/auth/sign_out", signOut);
  app.delete("/auth/sign_out", signOut);
}
