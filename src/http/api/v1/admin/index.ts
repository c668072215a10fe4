import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";
import { adminAccountActionRoutes } from "./account-action-routes.ts";
import { adminAccountRoutes } from "./account-routes.ts";
import { adminActionLogRoutes } from "./action-log-routes.ts";
import { adminBlockRoutes } from "./block-routes.ts";
import { adminDashboardRoutes } from "./dashboard-routes.ts";
import { adminDomainRoutes } from "./domain-routes.ts";
import { adminReportRoutes } from "./report-routes.ts";
import { adminRoleRoutes } from "./role-routes.ts";
import { adminTagRoutes } from "./tag-routes.ts";
import { adminTrendRoutes } from "./trend-routes.ts";

/**
 * 1.28 Admin API. Every route is guarded by `requireAdmin` (middleware/admin-auth.ts): a token
 * with the admin scope or a staff session with its CSRF token, and a role with the permission.
 * Every write goes through the moderation service (services/moderation), which logs it.
 */
export function adminRoutes(app: Hono<HonoEnv>): void {
  adminReportRoutes(app);
  adminAccountRoutes(app);
  adminAccountActionRoutes(app);
  adminDomainRoutes(app);
  adminBlockRoutes(app);
  adminDashboardRoutes(app);
  adminTagRoutes(app);
  adminTrendRoutes(app);
  adminRoleRoutes(app);
  adminActionLogRoutes(app);
}
