import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { hmac, randomToken, safeEqual } from "../../lib/crypto.ts";
import type { Account, User } from "../../services/accounts/types.ts";
import { sessionUser } from "../../services/oauth/sign-in.ts";
import {
  createWebSession,
  endWebSession,
  passwordFingerprint,
  resolveWebSession,
  SESSION_LIFETIME_MS,
} from "../../services/security/sessions.ts";
import { clientIpOf } from "../middleware/client-ip.ts";
import type { HonoEnv } from "../types.ts";

/**
 * Browser sessions: a cookie holding a small payload signed with HMAC (SECRET_KEY). Anonymous
 * visitors get a session too, because the CSRF token of the sign-in form is bound to the
 * session's nonce. A signed-in session also has a row in `web_sessions` (named by the nonce's
 * hash): the user can list and revoke sessions, and a revoked one is anonymous at once.
 */
export const SESSION_COOKIE = "gannet_session";
const SIGNED_IN_TTL_S = SESSION_LIFETIME_MS / 1000;
const ANONYMOUS_TTL_S = 2 * 60 * 60;
/** How long the second step of a sign-in may take after the password was right. */
const SECOND_FACTOR_TTL_S = 5 * 60;

interface Payload {
  /** Random per session; rotated on sign-in and sign-out (no session fixation). */
  n: string;
  /** Signed-in user, if any. */
  u?: string;
  /** Fingerprint of the user's password hash: changing the password ends other sessions. */
  p?: string;
  /** Expiry, unix seconds. */
  e: number;
  /** A sign-in waiting for its second factor: the user (not signed in yet) ... */
  a?: string;
  /** ... their password fingerprint then ... */
  ap?: string;
  /** ... and until when (unix seconds). */
  ae?: number;
}

export interface WebSession {
  nonce: string;
  user?: User;
  account?: Account;
  /** The `web_sessions` row of a signed-in session. */
  id?: string;
}

const sign = (secret: string, data: string): string => hmac(secret, `session:${data}`);

function writeCookie(c: Context<HonoEnv>, payload: Payload): void {
  const data = Buffer.from(JSON.stringify(payload)).toString("base64url");
  const { config } = c.env.ctx;
  setCookie(c, SESSION_COOKIE, `${data}.${sign(config.secretKey, data)}`, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: config.localHttps,
    maxAge: payload.e - Math.floor(Date.now() / 1000),
  });
}

/** A session cookie's payload part once checked: the signature it must carry and what it says. */
interface CheckedCookie {
  signature: string;
  payload: Readonly<Payload>;
}

/**
 * Session cookies seen valid, by payload part (per context: its secret key), so a browser's
 * next request costs no HMAC and no JSON parse. The signature is still compared in constant time
 * and the expiry checked on every request. Bounded: all are forgotten at once when full.
 */
const checkedCookies = new WeakMap<object, Map<string, CheckedCookie>>();
/** CSRF tokens by session nonce (per context), bounded the same way. */
const csrfTokens = new WeakMap<object, Map<string, string>>();
const CHECKED_MAX = 2000;

function mapOf<V>(maps: WeakMap<object, Map<string, V>>, ctx: object): Map<string, V> {
  let map = maps.get(ctx);
  if (map === undefined) {
    map = new Map();
    maps.set(ctx, map);
  }
  return map;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= CHECKED_MAX) map.clear();
  map.set(key, value);
}

function readPayload(c: Context<HonoEnv>): Readonly<Payload> | undefined {
  const raw = getCookie(c, SESSION_COOKIE);
  if (!raw || raw.length > 1000) return undefined;
  const dot = raw.indexOf(".");
  if (dot < 0) return undefined;
  const data = raw.slice(0, dot);
  const checked = mapOf(checkedCookies, c.env.ctx);
  let known = checked.get(data);
  if (known === undefined) {
    const signature = sign(c.env.ctx.config.secretKey, data);
    if (!safeEqual(raw.slice(dot + 1), signature)) return undefined;
    let p: Payload;
    try {
      p = JSON.parse(Buffer.from(data, "base64url").toString("utf8")) as Payload;
    } catch {
      return undefined;
    }
    if (typeof p?.n !== "string" || typeof p.e !== "number") return undefined;
    known = { signature, payload: Object.freeze(p) };
    remember(checked, data, known);
  } else if (!safeEqual(raw.slice(dot + 1), known.signature)) {
    return undefined;
  }
  return known.payload.e <= Date.now() / 1000 ? undefined : known.payload;
}

/**
 * The request's session, if its cookie is valid. A session whose user is gone, disabled or has
 * changed password since counts as anonymous (same nonce, so a form in flight still validates).
 */
export async function loadSession(c: Context<HonoEnv>): Promise<WebSession | undefined> {
  const p = readPayload(c);
  if (!p) return undefined;
  c.set("sessionCsrf", csrfToken(c, { nonce: p.n }));
  let session: WebSession = { nonce: p.n };
  if (p.u) {
    const found = await resolveWebSession(c.env.ctx, p.n, p.u, clientIpOf(c));
    if (found && p.p === passwordFingerprint(found.user))
      session = { nonce: p.n, user: found.user, account: found.account, id: found.row.id };
  }
  c.set("webSession", session);
  return session;
}

/** Whether the request's session cookie names a signed-in user (no database read: for the layout's menu). */
export function cookieSaysSignedIn(c: Context<HonoEnv>): boolean {
  const known = c.get("webSession");
  if (known) return known.user !== undefined;
  return readPayload(c)?.u !== undefined;
}

/** The request's session, or a new anonymous one (its cookie is set on the response). */
export async function ensureSession(c: Context<HonoEnv>): Promise<WebSession> {
  return (await loadSession(c)) ?? anonymousSession(c);
}

/** A new anonymous session replacing whatever the request had (used by `force_login`). */
export function anonymousSession(c: Context<HonoEnv>): WebSession {
  const nonce = randomToken(16);
  writeCookie(c, { n: nonce, e: Math.floor(Date.now() / 1000) + ANONYMOUS_TTL_S });
  c.set("sessionCsrf", csrfToken(c, { nonce }));
  const session = { nonce };
  c.set("webSession", session);
  return session;
}

/** A new anonymous session replacing the request's; a signed-in one ends (its row goes). For `force_login`. */
export async function restartSession(c: Context<HonoEnv>): Promise<WebSession> {
  const p = readPayload(c);
  const session = anonymousSession(c);
  if (p?.u) await endWebSession(c.env.ctx, p.n);
  return session;
}

/** Starts a signed-in session for `user` with a fresh nonce (and its `web_sessions` row). */
export async function startSession(c: Context<HonoEnv>, user: User, account: Account): Promise<WebSession> {
  const nonce = randomToken(16);
  const id = await createWebSession(c.env.ctx, user, nonce, {
    userAgent: c.req.header("user-agent"),
    ip: clientIpOf(c),
  });
  writeCookie(c, {
    n: nonce,
    u: user.id,
    p: passwordFingerprint(user),
    e: Math.floor(Date.now() / 1000) + SIGNED_IN_TTL_S,
  });
  c.set("sessionCsrf", csrfToken(c, { nonce }));
  const session = { nonce, user, account, id };
  c.set("webSession", session);
  return session;
}

/**
 * Ends the session: the cookie is removed (at once, before this function first waits) and the
 * session's row deleted.
 */
export async function endSession(c: Context<HonoEnv>): Promise<void> {
  const p = readPayload(c);
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: c.env.ctx.config.localHttps });
  c.set("sessionCsrf", null);
  c.set("webSession", undefined);
  if (p?.u) await endWebSession(c.env.ctx, p.n);
}

/**
 * After a right password, for a user with a second factor: a new anonymous session (fresh nonce)
 * that remembers, for five minutes, whose second factor the next step checks.
 */
export function startSecondFactor(c: Context<HonoEnv>, user: User): WebSession {
  const nonce = randomToken(16);
  const now = Math.floor(Date.now() / 1000);
  writeCookie(c, {
    n: nonce,
    e: now + ANONYMOUS_TTL_S,
    a: user.id,
    ap: passwordFingerprint(user),
    ae: now + SECOND_FACTOR_TTL_S,
  });
  c.set("sessionCsrf", csrfToken(c, { nonce }));
  const session = { nonce };
  c.set("webSession", session);
  return session;
}

/** The user whose second factor this anonymous session waits for (not expired), if any. */
export async function pendingSecondFactor(c: Context<HonoEnv>): Promise<{ user: User; account: Account } | undefined> {
  const p = readPayload(c);
  if (!p?.a || p.u || !p.ae || p.ae <= Date.now() / 1000) return undefined;
  const found = await sessionUser(c.env.ctx, p.a);
  if (!found || passwordFingerprint(found.user) !== p.ap) return undefined;
  return found;
}

/** Forgets a pending second step (the visitor went back to the sign-in form); keeps the nonce. */
export function abandonSecondFactor(c: Context<HonoEnv>): void {
  const p = readPayload(c);
  if (!p?.a) return;
  writeCookie(c, { n: p.n, e: p.e });
}

/** The CSRF token for forms of this session. */
export function csrfToken(c: Context<HonoEnv>, session: Pick<WebSession, "nonce">): string {
  const tokens = mapOf(csrfTokens, c.env.ctx);
  let token = tokens.get(session.nonce);
  if (token === undefined) {
    token = hmac(c.env.ctx.config.secretKey, `csrf:${session.nonce}`);
    remember(tokens, session.nonce, token);
  }
  return token;
}

/**
 * The CSRF token of the browser session this response leaves in place, if any: the one started or
 * read during the request, else the one of the request's valid session cookie (no database read).
 */
export function pageCsrfToken(c: Context<HonoEnv>): string | undefined {
  const known = c.get("sessionCsrf");
  if (known !== undefined) return known ?? undefined;
  const p = readPayload(c);
  return p ? csrfToken(c, { nonce: p.n }) : undefined;
}

/** Whether a submitted CSRF token belongs to this session. */
export function checkCsrf(c: Context<HonoEnv>, session: WebSession | undefined, token: unknown): boolean {
  return session !== undefined && typeof token === "string" && safeEqual(token, csrfToken(c, session));
}
