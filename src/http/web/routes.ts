import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";

export function webRoutes(_app: Hono<HonoEnv>): void {}
