import type { Hono } from "hono";
import { Permission } from "../../../../lib/roles.ts";
import { dimensions, measures, retention } from "../../../../services/moderation/dashboard.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

const DASHBOARD = requireAdmin(Permission.viewDashboard, "admin:read");

/** 1.28 Admin API: measures, dimensions and retention (View Dashboard). */
export function adminDashboardRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/admin/measures", ...DASHBOARD, async (c) => c.json(await measures(c.env.ctx, await readParams(c))));
  app.post("/api/v1/admin/dimensions", ...DASHBOARD, async (c) =>
    c.json(await dimensions(c.env.ctx, await readParams(c))),
  );
  app.post("/api/v1/admin/retention", ...DASHBOARD, async (c) =>
    c.json(await retention(c.env.ctx, await readParams(c))),
  );
}
