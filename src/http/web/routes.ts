import type { Hono } from "hono";
import { lazyArea } from "../lazy-area.ts";
import type { HonoEnv } from "../types.ts";
import { assetRoutes } from "./assets.ts";
import { feedRoutes } from "./feeds/routes.ts";
import { profileRoutes } from "./profiles/routes.ts";
import { severedRelationshipRoutes } from "./severed-relationships.ts";
import { siteRoutes } from "./site/routes.ts";

/**
 * Where each area loaded on its first request answers (lazy-area.ts): every one of its routes
 * lies under these (test/startup/lazy-areas.test.ts checks it).
 */
export const LAZY_WEB_AREAS = {
  auth: ["/auth", "/.well-known/change-password", "/settings/delete"],
  security: ["/settings"],
  settings: ["/settings", "/filters", "/oauth/authorized_applications"],
  data: ["/settings"],
  admin: ["/admin"],
  client: ["/home", "/web", "/lists", "/bookmarks", "/favourites", "/notifications", "/conversations", "/search"],
} as const;

/**
 * The server-rendered web side, one folder per area (docs/web.md), in this order. The pages a
 * visitor reaches first (site, feeds, profiles) load at start-up; the others (sign-up and
 * account pages, security, settings, data, admin, the client) on their first request.
 */
export function webRoutes(app: Hono<HonoEnv>): void {
  assetRoutes(app);
  siteRoutes(app);
  feedRoutes(app);
  profileRoutes(app);
  lazyArea(app, LAZY_WEB_AREAS.auth, async () => (await import("./auth/routes.ts")).authRoutes);
  lazyArea(app, LAZY_WEB_AREAS.security, async () => (await import("./security/routes.ts")).securityRoutes);
  lazyArea(app, LAZY_WEB_AREAS.settings, async () => (await import("./settings/routes.ts")).settingsRoutes);
  lazyArea(app, LAZY_WEB_AREAS.data, async () => (await import("./data/routes.ts")).dataRoutes);
  severedRelationshipRoutes(app);
  lazyArea(app, LAZY_WEB_AREAS.admin, async () => (await import("./admin/routes.ts")).adminPages);
  lazyArea(app, LAZY_WEB_AREAS.client, async () => (await import("./client/routes.ts")).clientRoutes);
}
