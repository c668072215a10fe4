import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** Admin trends review: candidates, approve and reject for tags, statuses, links and publishers (issue 17). */
export function adminTrendRoutes(_app: Hono<HonoEnv>): void {}
