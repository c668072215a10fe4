import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** The moderation panel's server pages (docs/web-admin-server.md). */
export function adminServerPages(_app: Hono<HonoEnv>): void {}
