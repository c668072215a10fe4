import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import { accessTokenChannel, publishAll } from "../streaming/channels.ts";

/** An application the user has authorized: it holds live tokens of theirs. */
export interface AuthorizedApp {
  app: Application;
  /** Every scope its live tokens carry. */
  scopes: string[];
  /** When the first of its live tokens was made. */
  authorizedAt: string;
  /** When one of its tokens was last used, if known. */
  lastUsedAt: string | null;
}

/**
 * The applications holding live tokens of the user (Mastodon's authorized applications), most
 * recently authorized first. Superapps (a server's own clients) are left out, as in Mastodon.
 */
export async function authorizedApps(ctx: AppContext, userId: string): Promise<AuthorizedApp[]> {
  const tokens = await ctx.repos.oauth.liveTokensOfUser(userId);
  const byApp = new Map<string, { scopes: Set<string>; first: string; last: string; used: string | null }>();
  for (const t of tokens) {
    if (t.applicationId === null) continue;
    const e = byApp.get(t.applicationId) ?? { scopes: new Set(), first: t.createdAt, last: t.createdAt, used: null };
    for (const s of t.scopes) e.scopes.add(s);
    if (t.createdAt < e.first) e.first = t.createdAt;
    if (t.createdAt > e.last) e.last = t.createdAt;
    if (t.lastUsedAt && (!e.used || t.lastUsedAt > e.used)) e.used = t.lastUsedAt;
    byApp.set(t.applicationId, e);
  }
  const apps = await ctx.repos.oauth.getApplicationsByIds([...byApp.keys()]);
  return apps
    .filter((app) => !app.superapp)
    .map((app) => {
      const e = byApp.get(app.id)!;
      return { app, scopes: [...e.scopes], authorizedAt: e.first, lastUsedAt: e.used, newest: e.last };
    })
    .sort((a, b) => (a.newest < b.newest ? 1 : a.newest > b.newest ? -1 : 0))
    .map(({ newest: _n, ...rest }) => rest);
}

/**
 * Revokes every token and grant the user gave the application (Mastodon's "Revoke"): its API
 * calls fail from now on, its streaming connections close and its push subscriptions go.
 * False when the user had not authorized it.
 */
export async function revokeAuthorizedApp(ctx: AppContext, userId: string, applicationId: string): Promise<boolean> {
  if (!/^\d{1,20}$/.test(applicationId)) return false;
  const tokenIds = await ctx.repos.oauth.liveTokenIdsOfApplication(applicationId, userId);
  if (tokenIds.length === 0) return false;
  await ctx.repos.oauth.revokeUserAuthorization(applicationId, userId, new Date().toISOString());
  for (const id of tokenIds) await ctx.repos.pushSubscriptions.deleteForToken(id);
  await publishAll(ctx, tokenIds.map(accessTokenChannel), "kill", null);
  return true;
}
