import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";

/** Two-factor sign-in (TOTP, recovery codes, WebAuthn) and the list of sessions. */
export function securityRoutes(_app: Hono<HonoEnv>): void {}
