import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.15 Trends (tags, statuses, links) and the link timeline (issue 17). */
export function trendRoutes(_app: Hono<HonoEnv>): void {}
