import { createHash } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import { randomToken, safeEqual, sha256 } from "../../lib/crypto.ts";
import { DEFAULT_SCOPES, isKnownScope, isSubset, parseScopes } from "../../lib/scopes.ts";

/** Authorization codes live 10 minutes (Doorkeeper's default, which Mastodon keeps). */
export const CODE_TTL_MS = 10 * 60 * 1000;

/** A PKCE S256 challenge: base64url SHA-256, 43 characters without padding. */
const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 code_verifier: 43 to 128 unreserved characters. */
const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;

export function isValidCodeChallenge(challenge: string): boolean {
  return CHALLENGE_RE.test(challenge);
}

/** Whether `verifier` hashes (S256) to `challenge`. */
export function pkceMatches(challenge: string, verifier: string): boolean {
  if (!VERIFIER_RE.test(verifier)) return false;
  return safeEqual(createHash("sha256").update(verifier).digest("base64url"), challenge);
}

/**
 * The scopes a request asks for (`read` when it names none), or null when one is unknown or the
 * application was not registered for it: tokens never get more than their application.
 */
export function requestedScopes(raw: string | undefined, app: Application): string[] | null {
  const scopes = raw === undefined || raw.trim() === "" ? [...DEFAULT_SCOPES] : parseScopes(raw);
  if (scopes.length === 0 || !scopes.every(isKnownScope)) return null;
  return isSubset(scopes, app.scopes) ? scopes : null;
}

export interface NewGrant {
  application: Application;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
}

/** Records the user's approval as a single-use code (stored hashed) and returns the raw code. */
export async function createGrant(ctx: AppContext, g: NewGrant): Promise<string> {
  const code = randomToken(32);
  const now = Date.now();
  await ctx.repos.oauth.insertGrant({
    id: ctx.ids.next(),
    application_id: g.application.id,
    user_id: g.userId,
    code_hash: sha256(code),
    redirect_uri: g.redirectUri,
    scopes: g.scopes.join(" "),
    code_challenge: g.codeChallenge,
    code_challenge_method: g.codeChallenge ? "S256" : null,
    expires_at: new Date(now + CODE_TTL_MS).toISOString(),
    revoked_at: null,
    created_at: new Date(now).toISOString(),
  });
  return code;
}

/**
 * Whether the user already holds a live token of this application with exactly these scopes;
 * Mastodon then skips the consent screen, as the user approved the same thing before.
 */
export async function hasMatchingToken(
  ctx: AppContext,
  app: Application,
  userId: string,
  scopes: readonly string[],
): Promise<boolean> {
  const tokens = await ctx.repos.oauth.getActiveTokensOf(app.id, userId);
  const wanted = [...new Set(scopes)].sort().join(" ");
  return tokens.some((t) => [...new Set(t.scopes)].sort().join(" ") === wanted);
}
