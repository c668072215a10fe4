import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** The public site: the home and about pages, privacy policy, terms of service, the local timeline page. */
export function siteRoutes(_app: Hono<HonoEnv>): void {}
