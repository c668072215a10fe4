import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: moderation actions on an account, their undoing, and deleting a suspended account's data. */
export function adminAccountActionRoutes(_app: Hono<HonoEnv>): void {}
