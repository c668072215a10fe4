import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** RSS feeds, oEmbed and remote interaction (follow, reply, favourite from another server). */
export function feedRoutes(_app: Hono<HonoEnv>): void {}
