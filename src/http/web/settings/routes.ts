import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** Settings: profile, preferences, filters, hashtags, authorized apps, development. */
export function settingsRoutes(_app: Hono<HonoEnv>): void {}
