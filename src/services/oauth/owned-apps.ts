import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import type { User } from "../../db/repositories/users.ts";
import { sha256 } from "../../lib/crypto.ts";
import { openToken, sealToken } from "../push/token-box.ts";
import { accessTokenChannel, publishAll } from "../streaming/channels.ts";
import { type AppProblem, checkAppRegistration } from "./apps.ts";
import { createApplication, issueToken } from "./tokens.ts";

/**
 * Applications a user makes for themselves (Mastodon's Settings → Development): the user owns
 * them, sees their client secret and "Your access token" (a token for the owner with the app's
 * scopes, made on first view) at any time, and may edit, regenerate the token of, or delete them.
 * Only the owner may do any of this: anyone else is told the application does not exist.
 */

export interface OwnedAppInput {
  name: string;
  website: string;
  /** One per line. */
  redirectUris: string;
  scopes: string[];
}

/** Field problems of the form (by field: name, website, redirect_uris, scopes), or the checked app. */
export type OwnedAppCheck =
  | { ok: true; app: ReturnType<typeof checkAppRegistration>["app"] }
  | { ok: false; problems: AppProblem[] };

/** Checks the form as `POST /api/v1/apps` checks its parameters; at least one scope is needed. */
export function checkOwnedApp(input: OwnedAppInput): OwnedAppCheck {
  const { app, problems } = checkAppRegistration({
    client_name: input.name,
    website: input.website.trim(),
    redirect_uris: input.redirectUris.trim(),
    scopes: input.scopes.join(" "),
  });
  if (input.scopes.length === 0) problems.push({ field: "scopes", message: "Scopes can't be blank" });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, app };
}

/** The applications the account owns. */
export function ownedApps(ctx: AppContext, accountId: string): Promise<Application[]> {
  return ctx.repos.oauth.applicationsOwnedBy(accountId);
}

/** One of the account's own applications; undefined for anyone else's (or none). */
export async function ownedApp(ctx: AppContext, accountId: string, id: string): Promise<Application | undefined> {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const app = await ctx.repos.oauth.getApplicationById(id);
  return app && app.ownerAccountId === accountId ? app : undefined;
}

export async function createOwnedApp(
  ctx: AppContext,
  accountId: string,
  input: OwnedAppInput,
): Promise<OwnedAppCheck & { application?: Application }> {
  const checked = checkOwnedApp(input);
  if (!checked.ok) return checked;
  const { application } = await createApplication(ctx, { ...checked.app, ownerAccountId: accountId, revealable: true });
  return { ...checked, application };
}

/** Kills the streaming connections of these tokens (Mastodon's `kill`). */
async function closeStreams(ctx: AppContext, tokenIds: readonly string[]): Promise<void> {
  if (tokenIds.length > 0) await publishAll(ctx, tokenIds.map(accessTokenChannel), "kill", null);
}

/** Revokes the owner's token shown on the app's page, if it is still live. */
async function revokeOwnerToken(ctx: AppContext, app: Application): Promise<void> {
  const raw = app.ownerTokenBox ? openToken(ctx.config.secretKey, app.ownerTokenBox) : undefined;
  const token = raw ? await ctx.repos.oauth.getTokenByHash(sha256(raw)) : undefined;
  if (token && token.revokedAt === null) {
    await ctx.repos.oauth.revokeToken(token.id, new Date().toISOString());
    await closeStreams(ctx, [token.id]);
  }
  await ctx.repos.oauth.updateApplication(app.id, { owner_token_box: null });
}

/**
 * Changes an application. As in Mastodon, a change of scopes regenerates the owner's token (the
 * old one had the old scopes); other tokens keep the scopes they were granted.
 */
export async function updateOwnedApp(ctx: AppContext, app: Application, input: OwnedAppInput): Promise<OwnedAppCheck> {
  const checked = checkOwnedApp(input);
  if (!checked.ok) return checked;
  const v = checked.app;
  await ctx.repos.oauth.updateApplication(app.id, {
    name: v.name,
    website: v.website,
    redirect_uris: v.redirectUris.join("\n"),
    scopes: v.scopes.join(" "),
    updated_at: new Date().toISOString(),
  });
  const sameScopes = [...v.scopes].sort().join(" ") === [...app.scopes].sort().join(" ");
  if (!sameScopes) await revokeOwnerToken(ctx, app);
  return checked;
}

/** Deletes the application with every grant and token made for it (their streams close). */
export async function deleteOwnedApp(ctx: AppContext, app: Application): Promise<void> {
  const live = await ctx.repos.oauth.liveTokenIdsOfApplication(app.id);
  await ctx.repos.oauth.deleteApplication(app.id);
  await closeStreams(ctx, live);
}

/** The client secret of an app made on the Development page (undefined for others). */
export function clientSecretOf(ctx: AppContext, app: Application): string | undefined {
  return app.clientSecretBox ? openToken(ctx.config.secretKey, app.clientSecretBox) : undefined;
}

/**
 * "Your access token": the owner's live token for the app, or a new one with the app's scopes
 * when there is none yet or it was revoked (Mastodon's `token_for_app`).
 */
export async function ownerToken(ctx: AppContext, app: Application, owner: User): Promise<string> {
  const raw = app.ownerTokenBox ? openToken(ctx.config.secretKey, app.ownerTokenBox) : undefined;
  if (raw) {
    const token = await ctx.repos.oauth.getTokenByHash(sha256(raw));
    if (token && token.revokedAt === null && token.userId === owner.id && token.applicationId === app.id) return raw;
  }
  const { accessToken } = await issueToken(ctx, { applicationId: app.id, userId: owner.id, scopes: app.scopes });
  await ctx.repos.oauth.updateApplication(app.id, { owner_token_box: sealToken(ctx.config.secretKey, accessToken) });
  return accessToken;
}

/** Revokes the owner's token; the app's page then shows a new one. */
export async function regenerateOwnerToken(ctx: AppContext, app: Application): Promise<void> {
  await revokeOwnerToken(ctx, app);
}
