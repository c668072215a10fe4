import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** The web client's timelines (docs/web-client.md). */
export function clientTimelineRoutes(_app: Hono<HonoEnv>): void {}
