import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** The moderation panel's federation pages (docs/web-admin-federation.md). */
export function adminFederationPages(_app: Hono<HonoEnv>): void {}
