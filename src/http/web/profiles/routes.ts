import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** Public profiles, posts with their threads, hashtag pages and embeds. */
export function profileRoutes(_app: Hono<HonoEnv>): void {}
