import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: e-mail domain blocks, canonical e-mail blocks and IP blocks (Manage Blocks). */
export function adminBlockRoutes(_app: Hono<HonoEnv>): void {}
