import type { MiddlewareHandler } from "hono";
import { optionalToken, requireSignedIn, requireToken, requireUser } from "../../middleware/auth.ts";
import { requirePermission } from "../../middleware/role-permission.ts";
import type { HonoEnv } from "../../types.ts";
import type { Guard } from "./types.ts";

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
