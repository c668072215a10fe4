import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import { hmac, randomToken, sha256 } from "../../lib/crypto.ts";

/**
 * The web client (`/home` and around) is a client of the API like any other app: it calls
 * `/api/v1` with an access token of the server's own first-party application ("Web", a superapp,
 * so it is not listed among the user's authorized apps, as in Mastodon), issued for the browser
 * session. The token is derived from the session's secret nonce, so it is never stored in the
 * clear: a page recomputes it, and the row (its hash) names the session, so ending the session
 * deletes it (migration 0050).
 */
export const WEB_CLIENT_ID = "gannet-web-client";
export const WEB_CLIENT_NAME = "Web";
export const WEB_CLIENT_SCOPES = ["read", "write", "follow", "push"] as const;

const apps = new WeakMap<AppContext, Application>();

/** The first-party application, made on first use. */
export async function webClientApplication(ctx: AppContext): Promise<Application> {
  const known = apps.get(ctx);
  if (known) return known;
  let app = await ctx.repos.oauth.getApplicationByClientId(WEB_CLIENT_ID);
  if (!app) {
    const now = new Date().toISOString();
    try {
      await ctx.repos.oauth.insertApplication({
        id: ctx.ids.next(),
        name: WEB_CLIENT_NAME,
        website: null,
        redirect_uris: "urn:ietf:wg:oauth:2.0:oob",
        scopes: WEB_CLIENT_SCOPES.join(" "),
        client_id: WEB_CLIENT_ID,
        // Nobody holds the secret: the application gets tokens only through a browser session.
        client_secret: sha256(randomToken(32)),
        superapp: true,
        owner_account_id: null,
        client_secret_box: null,
        created_at: now,
        updated_at: now,
      });
    } catch {
      // Another request made it first (client_id is unique).
    }
    app = await ctx.repos.oauth.getApplicationByClientId(WEB_CLIENT_ID);
    if (!app) throw new Error("the web client application could not be made");
  }
  apps.set(ctx, app);
  return app;
}

/** What the web client needs of a signed-in session. */
export interface ClientSession {
  nonce: string;
  /** The `web_sessions` row. */
  id: string;
  userId: string;
}

/**
 * The session's access token for the web client, issued on first use; undefined when the token
 * was revoked (the user must sign in again for a new one).
 */
export async function webClientToken(ctx: AppContext, session: ClientSession): Promise<string | undefined> {
  // Known valid while no token, session or user changed since (the database's change stamp).
  const stamp = ctx.database.changeStamp();
  let cache = known.get(ctx);
  if (cache === undefined) {
    cache = new Map();
    known.set(ctx, cache);
  }
  const seen = cache.get(session.nonce);
  if (seen !== undefined && stamp !== undefined && seen.stamp === stamp) return seen.token;
  const token = await sessionToken(ctx, session);
  if (stamp !== undefined) {
    if (cache.size >= KNOWN_MAX) cache.clear();
    cache.set(session.nonce, { stamp, token });
  }
  return token;
}

const known = new WeakMap<AppContext, Map<string, { stamp: number; token: string | undefined }>>();
const KNOWN_MAX = 10_000;

async function sessionToken(ctx: AppContext, session: ClientSession): Promise<string | undefined> {
  const raw = hmac(ctx.config.secretKey, `web-client-token:${session.nonce}`);
  const hash = sha256(raw);
  const existing = await ctx.repos.oauth.getTokenByHash(hash);
  if (existing) return existing.revokedAt === null && existing.userId === session.userId ? raw : undefined;
  const app = await webClientApplication(ctx);
  try {
    await ctx.repos.oauth.insertToken({
      id: ctx.ids.next(),
      application_id: app.id,
      user_id: session.userId,
      token_hash: hash,
      scopes: WEB_CLIENT_SCOPES.join(" "),
      revoked_at: null,
      last_used_at: null,
      created_at: new Date().toISOString(),
      web_session_id: session.id,
    });
  } catch {
    // Two pages of the same session at once: the other one made it.
  }
  return raw;
}
