import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** Sign-up, e-mail confirmation, password reset, the account page (e-mail and password change) and account deletion. */
export function authRoutes(_app: Hono<HonoEnv>): void {}
