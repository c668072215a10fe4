import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** The web client's pages (docs/web-client.md). */
export function clientPageRoutes(_app: Hono<HonoEnv>): void {}
