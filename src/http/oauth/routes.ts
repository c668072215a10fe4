import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";

export function oauthRoutes(_app: Hono<HonoEnv>): void {}
