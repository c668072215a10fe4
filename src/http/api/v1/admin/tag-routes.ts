import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: hashtags (Manage Taxonomies). */
export function adminTagRoutes(_app: Hono<HonoEnv>): void {}
