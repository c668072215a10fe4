import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** 1.28 Admin API: domain blocks and domain allows (Manage Federation). */
export function adminDomainRoutes(_app: Hono<HonoEnv>): void {}
