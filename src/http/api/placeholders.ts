import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";

export function placeholderRoutes(_app: Hono<HonoEnv>): void {}
