import type { Context, Hono } from "hono";
import { ALL_SCOPES } from "../../lib/scopes.ts";
import { accountJson } from "../../services/accounts/views.ts";
import { currentAccount, requireUser } from "../middleware/auth.ts";
import type { HonoEnv } from "../types.ts";

/** RFC 8414 authorization server metadata, as Mastodon publishes it. */
function serverMetadata(c: Context<HonoEnv>): Response {
  const { baseUrl, oauthPasswordGrant } = c.env.ctx.config;
  return c.json({
    issuer: `${baseUrl}/`,
    service_documentation: "https://docs.joinmastodon.org/",
    authorization_endpoint: `${baseUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    app_registration_endpoint: `${baseUrl}/api/v1/apps`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    userinfo_endpoint: `${baseUrl}/oauth/userinfo`,
    scopes_supported: ALL_SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query", "fragment", "form_post"],
    code_challenge_methods_supported: ["S256"],
    grant_types_supported: ["authorization_code", "client_credentials", ...(oauthPasswordGrant ? ["password"] : [])],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
  });
}

/** OpenID-style claims about the token's user (Mastodon 4.4). */
async function userinfo(c: Context<HonoEnv>): Promise<Response> {
  const ctx = c.env.ctx;
  const account = currentAccount(c);
  const json = await accountJson(ctx, account);
  const profileUrl = String(json.url);
  return c.json({
    iss: `${ctx.config.baseUrl}/`,
    sub: account.uri,
    name: account.displayName,
    preferred_username: account.username,
    profile: profileUrl,
    picture: json.avatar,
    website: profileUrl,
  });
}

export function metadataRoutes(app: Hono<HonoEnv>): void {
  app.get("/.well-known/oauth-authorization-server", serverMetadata);
  app.get("/oauth/userinfo", requireUser("profile"), userinfo);
  app.post("/oauth/userinfo", requireUser("profile"), userinfo);
}
