import type { Context, MiddlewareHandler } from "hono";
import { ApiError, ERR } from "../../lib/errors.ts";
import { grantsAny } from "../../lib/scopes.ts";
import { userLoginProblem } from "../../policies/accounts.ts";
import { authStamp, recordSignIn, resolveBearerToken } from "../../services/oauth/bearer.ts";
import type { Auth, HonoEnv } from "../types.ts";
import { clientIpOf } from "./client-ip.ts";

const SIGN_IN_REFRESH_MS = 60 * 60 * 1000;

/**
 * What a guard asks for, as the API description (src/http/openapi) reads it off a route's
 * handlers: `user` (a user token), `token` (any token), `optional` (public; a sent token is
 * checked), `signed-in` (a user token, no scope), `permission` (a role bit, after `user`).
 */
export interface GuardTag {
  kind: "user" | "token" | "optional" | "signed-in" | "permission";
  scopes: readonly string[];
  permission?: number;
}

/** Guard middleware → what it asks for. Written once when a route is registered, never per request. */
export const guardTags = new WeakMap<MiddlewareHandler<HonoEnv>, GuardTag>();

/** Tags `mw` in `guardTags` and returns it. */
export function tagGuard(mw: MiddlewareHandler<HonoEnv>, tag: GuardTag): MiddlewareHandler<HonoEnv> {
  guardTags.set(mw, tag);
  return mw;
}

/** The bearer token of a request: `Authorization: Bearer`, else the `access_token` query parameter. */
export function bearerToken(c: Context<HonoEnv>): string | undefined {
  const h = c.req.header("authorization");
  if (h) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    if (m) return m[1];
  }
  return c.req.query("access_token") || undefined;
}

/**
 * Remembers what tokens resolved to while nothing they depend on has changed: an entry is used
 * only while the database's change stamp is the one it was read at (any write to accounts,
 * users, roles or tokens, in this process or on SQLite in any other, moves the stamp). Where no
 * stamp can be had (PostgreSQL), nothing is cached. Unknown tokens are remembered too, so a flood
 * of bad tokens does not reach the database; the map is bounded.
 */
export class TokenCache {
  readonly #entries = new Map<string, { stamp: number; auth: Auth | null }>();
  readonly #max: number;

  constructor(max = 10_000) {
    this.#max = max;
  }

  get(raw: string, stamp: number | undefined): Auth | null | undefined {
    if (stamp === undefined) return undefined;
    const e = this.#entries.get(raw);
    return e !== undefined && e.stamp === stamp ? e.auth : undefined;
  }

  set(raw: string, stamp: number | undefined, auth: Auth | null): void {
    if (stamp === undefined) return;
    if (this.#entries.size >= this.#max) this.#entries.clear();
    this.#entries.set(raw, { stamp, auth });
  }
}

/** Resolves the request's bearer token (if any) into `auth` / `badToken`. Checks nothing else. */
export async function authenticate(c: Context<HonoEnv>, cache: TokenCache): Promise<void> {
  c.set("auth", null);
  c.set("badToken", false);
  const raw = bearerToken(c);
  if (raw === undefined) return;
  const ctx = c.env.ctx;
  let stamp = authStamp(ctx);
  let auth = cache.get(raw, stamp);
  if (auth === undefined) {
    auth = await resolveBearerToken(ctx, raw);
    cache.set(raw, stamp, auth);
  }
  if (auth?.user && signInIsStale(auth.user.currentSignInAt)) {
    await recordSignIn(ctx, auth, clientIpOf(c));
    // The write moved the stamp; keep the fresh state under the new one.
    stamp = authStamp(ctx);
    cache.set(raw, stamp, auth);
  }
  if (auth) c.set("auth", auth);
  else c.set("badToken", true);
}

/** Middleware form of `authenticate`, for routes outside `/api`. */
export function authenticateMiddleware(cache: TokenCache): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    await authenticate(c, cache);
    await next();
  };
}

// The last sign-in time parsed (the same token asks again and again: parsed once).
let parsedAt: { at: string; ms: number } = { at: "", ms: Number.NaN };

function signInIsStale(at: string | null): boolean {
  if (at === null) return true;
  if (parsedAt.at !== at) parsedAt = { at, ms: Date.parse(at) };
  return Date.now() - parsedAt.ms > SIGN_IN_REFRESH_MS;
}

function checkScopes(c: Context<HonoEnv>, anyOf: readonly string[]): Auth {
  const auth = c.get("auth");
  if (!auth) throw new ApiError(401, ERR.invalidToken);
  if (anyOf.length > 0 && !grantsAny(auth.token.scopes, anyOf)) throw new ApiError(403, ERR.outsideScopes);
  return auth;
}

/** A user token is required: 401 without a valid token, 403 without a scope, 422 for an app token. */
export function requireUser(...anyOf: string[]): MiddlewareHandler<HonoEnv> {
  return tagGuard(
    async (c, next) => {
      const auth = checkScopes(c, anyOf);
      if (!auth.user || !auth.account) throw new ApiError(422, ERR.userRequired);
      const problem = userLoginProblem(auth.user, auth.account);
      if (problem) throw new ApiError(403, ERR[problem]);
      await next();
    },
    { kind: "user", scopes: anyOf },
  );
}

/**
 * Mastodon's bare `require_user!` (no `doorkeeper_authorize!` before it): without a usable user
 * token the answer is 422 "This method requires an authenticated user", never 401.
 */
export function requireSignedIn(): MiddlewareHandler<HonoEnv> {
  const states = requireUser();
  return tagGuard(
    async (c, next) => {
      if (!c.get("auth")?.user) throw new ApiError(422, ERR.userRequired);
      return states(c, next);
    },
    { kind: "signed-in", scopes: [] },
  );
}

/** Any valid token (app or user) holding one of the scopes. */
export function requireToken(...anyOf: string[]): MiddlewareHandler<HonoEnv> {
  return tagGuard(
    async (c, next) => {
      const auth = checkScopes(c, anyOf);
      if (auth.user && auth.account) {
        const problem = userLoginProblem(auth.user, auth.account);
        if (problem === "disabled") throw new ApiError(403, ERR.disabled);
      }
      await next();
    },
    { kind: "token", scopes: anyOf },
  );
}

/** Public endpoint that also takes a token: a bad token is 401, a token without the scope 403. */
export function optionalToken(...anyOf: string[]): MiddlewareHandler<HonoEnv> {
  return tagGuard(
    async (c, next) => {
      if (c.get("badToken")) throw new ApiError(401, ERR.invalidToken);
      const auth = c.get("auth");
      if (auth && anyOf.length > 0 && !grantsAny(auth.token.scopes, anyOf)) {
        throw new ApiError(403, ERR.outsideScopes);
      }
      await next();
    },
    { kind: "optional", scopes: anyOf },
  );
}

/** The signed-in account of a route guarded by `requireUser`. */
export function currentAccount(c: Context<HonoEnv>) {
  const a = c.get("auth")?.account;
  if (!a) throw new ApiError(422, ERR.userRequired);
  return a;
}

export function currentUser(c: Context<HonoEnv>) {
  const u = c.get("auth")?.user;
  if (!u) throw new ApiError(422, ERR.userRequired);
  return u;
}

/** The viewer of a public endpoint, if a usable user token was sent. */
export function viewerAccount(c: Context<HonoEnv>) {
  const auth = c.get("auth");
  if (!auth?.user || !auth.account) return undefined;
  return userLoginProblem(auth.user, auth.account) === null ? auth.account : undefined;
}
