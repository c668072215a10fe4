import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

export function instanceRoutes(_app: Hono<HonoEnv>): void {}
