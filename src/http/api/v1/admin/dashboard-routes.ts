import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: measures, dimensions and retention (View Dashboard). */
export function adminDashboardRoutes(_app: Hono<HonoEnv>): void {}
