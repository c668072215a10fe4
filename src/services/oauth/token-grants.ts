import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import { sha256 } from "../../lib/crypto.ts";
import { OAuthError } from "../../lib/errors.ts";
import { userLoginProblem } from "../../policies/accounts.ts";
import { secondFactorEnabled } from "../security/totp.ts";
import { accessTokenChannel, publishAll } from "../streaming/channels.ts";
import { pkceMatches, requestedScopes } from "./grants.ts";
import { checkCredentials, markSignedIn } from "./sign-in.ts";
import { checkClientSecret, type IssuedToken, issueToken } from "./tokens.ts";

const CLIENT_ID_MAX = 200;
const CLIENT_SECRET_MAX = 200;

export const invalidClient = (): OAuthError =>
  new OAuthError(
    401,
    "invalid_client",
    "Client authentication failed: the client is unknown, sent no credentials, or sent the wrong ones.",
  );

export const invalidGrant = (): OAuthError =>
  new OAuthError(
    400,
    "invalid_grant",
    "The authorization grant is invalid, expired, already used, revoked, issued to another client, or does not match the redirect URI of the authorization request.",
  );

const invalidScope = (): OAuthError =>
  new OAuthError(400, "invalid_scope", "The requested scope is invalid, unknown, or outside the application's scopes.");

export const missingParam = (name: string): OAuthError =>
  new OAuthError(400, "invalid_request", `Missing required parameter: ${name}.`);

/** The application whose client_id and client_secret these are; 401 invalid_client otherwise. */
export async function authenticateClient(
  ctx: AppContext,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Promise<Application> {
  if (!clientId || !clientSecret || clientId.length > CLIENT_ID_MAX || clientSecret.length > CLIENT_SECRET_MAX) {
    throw invalidClient();
  }
  const app = await ctx.repos.oauth.getApplicationByClientId(clientId);
  if (!app || !checkClientSecret(app, clientSecret)) throw invalidClient();
  return app;
}

/** `authorization_code`: trades a single-use code (checked against PKCE when it has a challenge). */
export async function tokenFromCode(
  ctx: AppContext,
  app: Application,
  p: { code?: string; redirectUri?: string; codeVerifier?: string; ip?: string },
): Promise<IssuedToken> {
  if (!p.code) throw missingParam("code");
  if (!p.redirectUri) throw missingParam("redirect_uri");
  const grant = await ctx.repos.oauth.getGrantByCodeHash(sha256(p.code));
  if (
    !grant ||
    grant.revokedAt !== null ||
    Date.parse(grant.expiresAt) <= Date.now() ||
    grant.applicationId !== app.id ||
    grant.redirectUri !== p.redirectUri
  ) {
    throw invalidGrant();
  }
  if (grant.codeChallenge !== null) {
    if (!p.codeVerifier) throw missingParam("code_verifier");
    if (!pkceMatches(grant.codeChallenge, p.codeVerifier)) throw invalidGrant();
  } else if (p.codeVerifier) {
    // A verifier for a code issued without a challenge means the two requests do not belong together.
    throw invalidGrant();
  }
  const user = await ctx.repos.users.getById(grant.userId);
  const account = user && (await ctx.repos.accounts.getById(user.accountId));
  if (!user || !account || userLoginProblem(user, account) === "disabled") throw invalidGrant();
  // Spend the code atomically: of two concurrent exchanges only one gets a token.
  if (!(await ctx.repos.oauth.revokeGrant(grant.id, new Date().toISOString()))) throw invalidGrant();
  const issued = await issueToken(ctx, { applicationId: app.id, userId: user.id, scopes: grant.scopes });
  await markSignedIn(ctx, user, p.ip);
  return issued;
}

/** `client_credentials`: an app token (no user) with scopes from the application's. */
export async function tokenForClient(ctx: AppContext, app: Application, scope: string | undefined) {
  const scopes = requestedScopes(scope, app);
  if (!scopes) throw invalidScope();
  return issueToken(ctx, { applicationId: app.id, userId: null, scopes });
}

/** `password` (only when the operator enables it): `username` is the e-mail address. */
export async function tokenFromPassword(
  ctx: AppContext,
  app: Application,
  p: { username?: string; password?: string; scope?: string; ip?: string },
): Promise<IssuedToken> {
  if (!p.username) throw missingParam("username");
  if (!p.password) throw missingParam("password");
  const scopes = requestedScopes(p.scope, app);
  if (!scopes) throw invalidScope();
  const user = await checkCredentials(ctx, p.username, p.password);
  const account = user && (await ctx.repos.accounts.getById(user.accountId));
  // Unconfirmed and pending users get a token, as in Mastodon: the API then tells them why it refuses.
  if (!user || !account || userLoginProblem(user, account) === "disabled") throw invalidGrant();
  // As Mastodon: a user with two-factor sign-in cannot get a token with the password alone.
  if (await secondFactorEnabled(ctx, user.id)) throw invalidGrant();
  const issued = await issueToken(ctx, { applicationId: app.id, userId: user.id, scopes });
  await markSignedIn(ctx, user, p.ip);
  return issued;
}

/**
 * Doorkeeper's one refusal at `/oauth/revoke`, for a client that failed to authenticate as well
 * as for a token that is not the client's (so the endpoint tells nobody which tokens exist).
 */
export const revokeRefused = (): OAuthError =>
  new OAuthError(403, "unauthorized_client", "You are not authorized to revoke this token");

/** Revokes an access token of this application; unknown tokens are fine (revocation is idempotent). */
export async function revokeClientToken(ctx: AppContext, app: Application, raw: string): Promise<void> {
  const token = raw.length > 200 ? undefined : await ctx.repos.oauth.getTokenByHash(sha256(raw));
  if (!token) return;
  if (token.applicationId !== app.id) throw revokeRefused();
  await ctx.repos.oauth.revokeToken(token.id, new Date().toISOString());
  // Its streaming connections close (Mastodon's `kill`).
  await publishAll(ctx, [accessTokenChannel(token.id)], "kill", null);
}
