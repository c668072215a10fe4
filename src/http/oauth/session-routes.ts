import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { Context, Hono } from "hono";
import { userLoginProblem } from "../../policies/accounts.ts";
import type { Account, User } from "../../services/accounts/types.ts";
import { formActionSource } from "../../services/oauth/redirect-uris.ts";
import { checkPasswordSignIn, markSignedIn } from "../../services/oauth/sign-in.ts";
import { secondFactorEnabled, verifySecondFactorCode } from "../../services/security/totp.ts";
import { authenticationOptions, credentialsOf, finishAuthentication } from "../../services/security/webauthn.ts";
import { clientIpOf } from "../middleware/client-ip.ts";
import { throttle } from "../middleware/rate-limit.ts";
import type { HonoEnv } from "../types.ts";
import { t } from "../web/i18n/index.ts";
import { errorPage } from "../web/pages/notices.ts";
import { secondFactorPage, signedInPage, signInPage } from "../web/pages/sign-in.ts";
import {
  abandonSecondFactor,
  anonymousSession,
  checkCsrf,
  csrfToken,
  endSession,
  ensureSession,
  loadSession,
  pendingSecondFactor,
  startSecondFactor,
  startSession,
  type WebSession,
} from "../web/session.ts";
import { readPageParams } from "./page-params.ts";
import { type Params, safeReturnTo } from "./params.ts";

type C = Context<HonoEnv>;

const FIVE_MIN = 5 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
/** Mastodon's MAX_2FA_ATTEMPTS_PER_HOUR: second-factor attempts per user and hour. */
const SECOND_FACTOR_ATTEMPTS = 10;
const AFTER_SIGN_IN = "/";
const CREDENTIAL_MAX = 16_384;

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

/**
 * Signs the user in: a new session, the sign-in recorded, and on to `return_to`; users who may
 * not use their account yet go to /auth/setup, unless they are resuming an OAuth authorization
 * (whose page explains the problem itself).
 */
async function finishSignIn(c: C, user: User, account: Account, returnTo: string | undefined): Promise<Response> {
  await startSession(c, user, account);
  await markSignedIn(c.env.ctx, user, clientIpOf(c));
  const problem = userLoginProblem(user, account);
  if ((problem === "unconfirmed" || problem === "pending") && !returnTo?.startsWith("/oauth/authorize?")) {
    return c.redirect("/auth/setup", 302);
  }
  return c.redirect(returnTo ?? AFTER_SIGN_IN, 302);
}

/** Counts a second-factor attempt for the user; true when over the hourly limit. */
async function tooManySecondFactorAttempts(c: C, userId: string): Promise<boolean> {
  const { ctx } = c.env;
  if (!ctx.config.rateLimits.enabled) return false;
  const { count } = await ctx.rateLimits.hit(`second_factor:user:${userId}`, HOUR);
  return count > SECOND_FACTOR_ATTEMPTS;
}

function parseCredential(raw: string): AuthenticationResponseJSON | undefined {
  if (raw === "" || raw.length > CREDENTIAL_MAX) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === "object" ? (v as AuthenticationResponseJSON) : undefined;
  } catch {
    return undefined;
  }
}

/** The second step: a code (app or recovery code) or a security key's assertion. */
async function secondStep(c: C, params: Params, session: WebSession, returnTo: string | undefined): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const formAction = formActionFor(returnTo);
  const pending = await pendingSecondFactor(c);
  if (!pending) {
    abandonSecondFactor(c);
    return signInPage(c, {
      csrf: csrfToken(c, session),
      returnTo,
      formAction,
      status: 401,
      error: tr("security.two_factor.expired"),
    });
  }
  const { user, account } = pending;
  const hasKeys = (await credentialsOf(ctx, user.id)).length > 0;
  const again = (status: number, error: string) =>
    secondFactorPage(c, { csrf: csrfToken(c, session), returnTo, formAction, status, error, hasKeys });
  if (await tooManySecondFactorAttempts(c, user.id)) return again(429, tr("security.two_factor.too_many"));
  const credential = str(params.credential);
  if (credential !== "") {
    const response = parseCredential(credential);
    const ok = response !== undefined && (await finishAuthentication(ctx, user.id, session.nonce, response));
    if (!ok) return again(401, tr("security.webauthn.failed"));
    return finishSignIn(c, user, account, returnTo);
  }
  const verdict = await verifySecondFactorCode(ctx, user.id, str(params.otp_attempt));
  if (verdict === "reused") return again(401, tr("security.two_factor.reused"));
  if (verdict !== "ok") return again(401, tr("security.two_factor.invalid"));
  return finishSignIn(c, user, account, returnTo);
}

async function signIn(c: C): Promise<Response> {
  const params = await readPageParams(c);
  if (params instanceof Response) return params;
  const tr = t(c);
  const ctx = c.env.ctx;
  const returnTo = safeReturnTo(params.return_to);
  const login = str(params.email).slice(0, 320);
  const formAction = formActionFor(returnTo);
  const session = await loadSession(c);
  if (!checkCsrf(c, session, params.authenticity_token)) {
    const fresh = anonymousSession(c);
    return signInPage(c, {
      csrf: csrfToken(c, fresh),
      returnTo,
      email: login,
      formAction,
      status: 422,
      error: tr("common.form_expired_text"),
    });
  }
  if (params.otp_attempt !== undefined || params.credential !== undefined) {
    return secondStep(c, params, session!, returnTo);
  }
  const again = (status: number, error: string) =>
    signInPage(c, { csrf: csrfToken(c, session!), returnTo, email: login, formAction, status, error });

  const checked = await checkPasswordSignIn(ctx, login, str(params.password));
  // One message for an unknown account and a wrong password: the form must not reveal who has an account.
  if ("problem" in checked) {
    return checked.problem === "invalid"
      ? again(401, tr("security.sign_in.invalid"))
      : again(403, tr("security.sign_in.disabled"));
  }
  const { user, account } = checked;
  if (await secondFactorEnabled(ctx, user.id)) {
    const pending = startSecondFactor(c, user);
    const hasKeys = (await credentialsOf(ctx, user.id)).length > 0;
    return secondFactorPage(c, { csrf: csrfToken(c, pending), returnTo, formAction, hasKeys });
  }
  return finishSignIn(c, user, account, returnTo);
}

async function signOut(c: C): Promise<Response> {
  const params = await readPageParams(c);
  if (params instanceof Response) return params;
  const session = await loadSession(c);
  if (!checkCsrf(c, session, params.authenticity_token)) {
    const tr = t(c);
    return errorPage(c, 422, tr("common.form_expired"), tr("common.form_expired_text"));
  }
  await endSession(c);
  return c.redirect(safeReturnTo(params.return_to) ?? "/auth/sign_in", 302);
}

/** The browser session: sign-in form, its second step, sign-in, sign-out. */
export function sessionRoutes(app: Hono<HonoEnv>): void {
  app.get("/auth/sign_in", async (c) => {
    const session = await ensureSession(c);
    // Coming back to the form abandons a sign-in waiting for its second factor.
    abandonSecondFactor(c);
    const returnTo = safeReturnTo(c.req.query("return_to"));
    if (session.account) {
      if (returnTo) return c.redirect(returnTo, 302);
      return signedInPage(c, session.account.username, csrfToken(c, session));
    }
    return signInPage(c, { csrf: csrfToken(c, session), returnTo, formAction: formActionFor(returnTo) });
  });
  // Mastodon's limit on sign-in attempts: 25 per 5 minutes per IP (shared with the password
  // grant); the second step posts here too, and also counts per user (10 an hour).
  app.post("/auth/sign_in", throttle("sign_in", 25, FIVE_MIN, "ip"), signIn);
  // The WebAuthn options of the pending second step (the sign-in page's script asks for them).
  app.get("/auth/sign_in/security_key_options", throttle("sign_in", 25, FIVE_MIN, "ip"), async (c) => {
    const session = await loadSession(c);
    const pending = session && (await pendingSecondFactor(c));
    const options = pending && (await authenticationOptions(c.env.ctx, pending.user.id, session.nonce));
    c.header("Cache-Control", "no-store");
    if (!options) return c.json({ error: t(c)("security.two_factor.expired") }, 401);
    return c.json(options);
  });
  app.post("/auth/sign_out", signOut);
  app.delete("/auth/sign_out", signOut);
}
