import type { AppContext } from "../../context.ts";
import type { AccessToken, Application } from "../../db/repositories/oauth.ts";
import { randomToken, safeEqual, sha256 } from "../../lib/crypto.ts";
import { sealToken } from "../push/token-box.ts";

export interface IssuedToken {
  accessToken: string;
  token: AccessToken;
}

export interface NewApplication {
  name: string;
  redirectUris: string[];
  scopes: string[];
  website?: string | null;
  ownerAccountId?: string | null;
  superapp?: boolean;
  /** Keep the client secret encrypted so its owner can see it again (Development settings page). */
  revealable?: boolean;
}

/** Registers an OAuth application; the raw client secret is returned once and stored hashed. */
export async function createApplication(
  ctx: AppContext,
  input: NewApplication,
): Promise<{ application: Application; clientSecret: string }> {
  const id = ctx.ids.next();
  const clientSecret = randomToken(32);
  const now = new Date().toISOString();
  await ctx.repos.oauth.insertApplication({
    id,
    name: input.name,
    website: input.website ?? null,
    redirect_uris: input.redirectUris.join("\n"),
    scopes: input.scopes.join(" "),
    client_id: randomToken(32),
    client_secret: sha256(clientSecret),
    superapp: input.superapp ?? false,
    owner_account_id: input.ownerAccountId ?? null,
    client_secret_box: input.revealable ? sealToken(ctx.config.secretKey, clientSecret) : null,
    created_at: now,
    updated_at: now,
  });
  const application = await ctx.repos.oauth.getApplicationById(id);
  if (!application) throw new Error("application vanished after creation");
  return { application, clientSecret };
}

/** Whether `secret` is the application's client secret. */
export function checkClientSecret(app: Application, secret: string): boolean {
  return safeEqual(sha256(secret), app.clientSecretHash);
}

/** Issues an access token (user token when `userId` is set, app token otherwise). Stored hashed. */
export async function issueToken(
  ctx: AppContext,
  input: { applicationId: string | null; userId: string | null; scopes: string[] },
): Promise<IssuedToken> {
  const accessToken = randomToken(32);
  const id = ctx.ids.next();
  const now = new Date().toISOString();
  await ctx.repos.oauth.insertToken({
    id,
    application_id: input.applicationId,
    user_id: input.userId,
    token_hash: sha256(accessToken),
    scopes: input.scopes.join(" "),
    revoked_at: null,
    last_used_at: null,
    created_at: now,
  });
  const token = await ctx.repos.oauth.getTokenByHash(sha256(accessToken));
  if (!token) throw new Error("token vanished after creation");
  return { accessToken, token };
}

/** Mastodon's Token entity. */
export function serializeToken(t: IssuedToken): Record<string, unknown> {
  return {
    access_token: t.accessToken,
    token_type: "Bearer",
    scope: t.token.scopes.join(" "),
    created_at: Math.floor(Date.parse(t.token.createdAt) / 1000),
  };
}

const CLI_APP_NAME = "Gannet command line";

/** The application that owns tokens made with `gannet tokens create` (made on first use). */
export async function cliApplication(ctx: AppContext): Promise<Application> {
  const existing = await ctx.repos.oauth.getApplicationByName(CLI_APP_NAME);
  if (existing) return existing;
  const { application } = await createApplication(ctx, {
    name: CLI_APP_NAME,
    redirectUris: ["urn:ietf:wg:oauth:2.0:oob"],
    scopes: ["read", "write", "follow", "push", "profile", "admin:read", "admin:write"],
  });
  return application;
}
