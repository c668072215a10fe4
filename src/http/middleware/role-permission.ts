import type { MiddlewareHandler } from "hono";
import { forbidden } from "../../lib/errors.ts";
import type { HonoEnv } from "../types.ts";
import { tagGuard } from "./auth.ts";

/**
 * Admin endpoints: after the scope guard (`requireUser(admin scope)`), the token's user must hold
 * a role granting `permission` (several bits OR-ed together must all be granted), else 403
 * "This action is not allowed", as Mastodon answers a failed Pundit check.
 */
export function requirePermission(permission: number): MiddlewareHandler<HonoEnv> {
  return tagGuard(
    async (c, next) => {
      const user = c.get("auth")?.user;
      if (!user || !(await c.env.ctx.roles.can(user.roleId, permission))) throw forbidden();
      await next();
    },
    { kind: "permission", scopes: [], permission },
  );
}
