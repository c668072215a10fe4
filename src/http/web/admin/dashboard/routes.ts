import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** The moderation panel's dashboard pages (docs/web-admin-dashboard.md). */
export function adminDashboardPages(_app: Hono<HonoEnv>): void {}
