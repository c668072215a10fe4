import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: roles and role assignment (Manage Roles; a Gannet extension). */
export function adminRoleRoutes(_app: Hono<HonoEnv>): void {}
