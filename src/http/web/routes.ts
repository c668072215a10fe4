import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";
import { adminPages } from "./admin/routes.ts";
import { assetRoutes } from "./assets.ts";
import { authRoutes } from "./auth/routes.ts";
import { clientRoutes } from "./client/routes.ts";
import { dataRoutes } from "./data/routes.ts";
import { feedRoutes } from "./feeds/routes.ts";
import { profileRoutes } from "./profiles/routes.ts";
import { securityRoutes } from "./security/routes.ts";
import { settingsRoutes } from "./settings/routes.ts";
import { severedRelationshipRoutes } from "./severed-relationships.ts";
import { siteRoutes } from "./site/routes.ts";

/** The server-rendered web side, one folder per area (docs/web.md). */
export function webRoutes(app: Hono<HonoEnv>): void {
  assetRoutes(app);
  siteRoutes(app);
  feedRoutes(app);
  profileRoutes(app);
  authRoutes(app);
  securityRoutes(app);
  settingsRoutes(app);
  dataRoutes(app);
  severedRelationshipRoutes(app);
  adminPages(app);
  clientRoutes(app);
}
