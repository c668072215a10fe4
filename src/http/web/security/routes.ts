import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { securityKeyRoutes } from "./security-keys.ts";
import { sessionPageRoutes } from "./sessions.ts";
import { twoFactorRoutes } from "./two-factor.ts";

/**
 * Two-factor sign-in (TOTP, recovery codes, WebAuthn) and the list of sessions. The sign-in form
 * and its second step are in src/http/oauth/session-routes.ts (OAuth's authorize page uses them).
 */
export function securityRoutes(app: Hono<HonoEnv>): void {
  twoFactorRoutes(app);
  securityKeyRoutes(app);
  sessionPageRoutes(app);
}
