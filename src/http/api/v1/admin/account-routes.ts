import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: account listings (v1 and v2), one account, approve, reject, enable. */
export function adminAccountRoutes(_app: Hono<HonoEnv>): void {}
