import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: the action log (a Gannet extension). */
export function adminActionLogRoutes(_app: Hono<HonoEnv>): void {}
