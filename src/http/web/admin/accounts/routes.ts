import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** The moderation panel's accounts pages (docs/web-admin-accounts.md). */
export function adminAccountPages(_app: Hono<HonoEnv>): void {}
