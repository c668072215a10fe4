import type { Hono } from "hono";
import { appsRoutes } from "../api/v1/apps/routes.ts";
import type { HonoEnv } from "../types.ts";
import { authorizeRoutes } from "./authorize.ts";
import { metadataRoutes } from "./metadata.ts";
import { sessionRoutes } from "./session-routes.ts";
import { tokenRoutes } from "./token-routes.ts";

/**
 * OAuth 2 as Mastodon speaks it: app registration, the browser authorization flow with its
 * sign-in session, the token and revocation endpoints, server metadata and userinfo.
 */
export function oauthRoutes(app: Hono<HonoEnv>): void {
  appsRoutes(app);
  authorizeRoutes(app);
  sessionRoutes(app);
  tokenRoutes(app);
  metadataRoutes(app);
}
