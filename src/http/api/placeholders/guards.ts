import type { MiddlewareHandler } from "hono";
import { ApiError, ERR } from "../../../lib/errors.ts";
import { optionalToken, requireToken, requireUser } from "../../middleware/auth.ts";
import { requirePermission } from "../../middleware/role-permission.ts";
import type { HonoEnv } from "../../types.ts";
import type { Guard } from "./types.ts";

/**
 * Mastodon's bare `require_user!` (no `doorkeeper_authorize!` before it): without a usable user
 * token the answer is 422 "This method requires an authenticated user", never 401.
 */
function requireSignedIn(): MiddlewareHandler<HonoEnv> {
  const states = requireUser();
  return async (c, next) => {
    if (!c.get("auth")?.user) throw new ApiError(422, ERR.userRequired);
    return states(c, next);
  };
}

/** The middleware chain of a guard. */
export function guardMiddleware(guard: Guard): MiddlewareHandler<HonoEnv>[] {
  switch (guard.auth) {
    case "public":
      return [];
    case "public*":
      return [optionalToken(...guard.scopes)];
    case "signed-in":
      return [requireSignedIn()];
    case "user":
      return [requireUser(...guard.scopes)];
    case "app":
      return [requireToken(...guard.scopes)];
    case "admin":
      return [requireUser(...guard.scopes), requirePermission(guard.permission)];
  }
}
