import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** Quote posts: quotes of a status, revoking one, the interaction policy (issue 17). */
export function quoteRoutes(_app: Hono<HonoEnv>): void {}
