import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { adminAccountPages } from "./accounts/routes.ts";
import { adminDashboardPages } from "./dashboard/routes.ts";
import { adminFederationPages } from "./federation/routes.ts";
import { adminReportPages } from "./reports/routes.ts";
import { adminServerPages } from "./server/routes.ts";

/** The moderation panel (`/admin/...`, docs/web-admin.md), one folder per part. */
export function adminPages(app: Hono<HonoEnv>): void {
  adminDashboardPages(app);
  adminReportPages(app);
  adminAccountPages(app);
  adminFederationPages(app);
  adminServerPages(app);
}
