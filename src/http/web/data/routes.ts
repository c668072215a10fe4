import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** Import and export, account aliases and moving. */
export function dataRoutes(_app: Hono<HonoEnv>): void {}
