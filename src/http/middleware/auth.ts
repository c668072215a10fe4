import type { Context, MiddlewareHandler } from "hono";
import { sha256 } from "../../lib/crypto.ts";
import { ApiError, ERR } from "../../lib/errors.ts";
import { grantsAny } from "../../lib/scopes.ts";
import { userLoginProblem } from "../../policies/accounts.ts";
import type { Auth, HonoEnv } from "../types.ts";

const SIGN_IN_REFRESH_MS = 60 * 60 * 1000;

/** The bearer token of a request: `Authorization: Bearer`, else the `access_token` query parameter. */
export function bearerToken(c: Context<HonoEnv>): string | undefined {
  const h = c.req.header("authorization");
  if (h) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    if (m) return m[1];
  }
  return c.req.query("access_token") || undefined;
}

/** Resolves the bearer token (if any) to an `Auth` once per request. Checks nothing. */
export function authenticate(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    c.set("auth", null);
    c.set("badToken", false);
    const raw = bearerToken(c);
    if (raw !== undefined) {
      const auth = await resolveToken(c, raw);
      if (auth) c.set("auth", auth);
      else c.set("badToken", true);
    }
    await next();
  };
}

async function resolveToken(c: Context<HonoEnv>, raw: string): Promise<Auth | null> {
  if (raw.length > 200) return null;
  const { repos } = c.var.ctx;
  const tokenHash = sha256(raw);
  const token = await repos.oauth.getTokenByHash(tokenHash);
  if (!token || token.revokedAt !== null) return null;
  if (token.userId === null) return { token, tokenHash };
  const user = await repos.users.getById(token.userId);
  if (!user) return null;
  const account = await repos.accounts.getById(user.accountId);
  if (!account) return null;
  const now = Date.now();
  if (user.currentSignInAt === null || now - Date.parse(user.currentSignInAt) > SIGN_IN_REFRESH_MS) {
    const iso = new Date(now).toISOString();
    user.lastSignInAt = user.currentSignInAt;
    user.currentSignInAt = iso;
    await repos.users.update(user.id, { current_sign_in_at: iso, last_sign_in_at: user.lastSignInAt });
  }
  return { token, tokenHash, user, account };
}

function checkScopes(c: Context<HonoEnv>, anyOf: readonly string[]): Auth {
  const auth = c.var.auth;
  if (!auth) throw new ApiError(401, ERR.invalidToken);
  if (anyOf.length > 0 && !grantsAny(auth.token.scopes, anyOf)) throw new ApiError(403, ERR.outsideScopes);
  return auth;
}

/** A user token is required: 401 without a valid token, 403 without a scope, 422 for an app token. */
export function requireUser(...anyOf: string[]): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const auth = checkScopes(c, anyOf);
    if (!auth.user || !auth.account) throw new ApiError(422, ERR.userRequired);
    const problem = userLoginProblem(auth.user, auth.account);
    if (problem) throw new ApiError(403, ERR[problem]);
    await next();
  };
}

/** Any valid token (app or user) holding one of the scopes. */
export function requireToken(...anyOf: string[]): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const auth = checkScopes(c, anyOf);
    if (auth.user && auth.account) {
      const problem = userLoginProblem(auth.user, auth.account);
      if (problem === "disabled") throw new ApiError(403, ERR.disabled);
    }
    await next();
  };
}

/** Public endpoint that also takes a token: a bad token is 401, a token without the scope 403. */
export function optionalToken(...anyOf: string[]): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (c.var.badToken) throw new ApiError(401, ERR.invalidToken);
    const auth = c.var.auth;
    if (auth && anyOf.length > 0 && !grantsAny(auth.token.scopes, anyOf)) {
      throw new ApiError(403, ERR.outsideScopes);
    }
    await next();
  };
}

/** The signed-in account of a route guarded by `requireUser`. */
export function currentAccount(c: Context<HonoEnv>) {
  const a = c.var.auth?.account;
  if (!a) throw new ApiError(422, ERR.userRequired);
  return a;
}

export function currentUser(c: Context<HonoEnv>) {
  const u = c.var.auth?.user;
  if (!u) throw new ApiError(422, ERR.userRequired);
  return u;
}

/** The viewer of a public endpoint, if a usable user token was sent. */
export function viewerAccount(c: Context<HonoEnv>) {
  const auth = c.var.auth;
  if (!auth?.user || !auth.account) return undefined;
  return userLoginProblem(auth.user, auth.account) === null ? auth.account : undefined;
}
