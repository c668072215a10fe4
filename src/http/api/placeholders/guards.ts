import type { MiddlewareHandler } from "hono";
import { requireAdmin } from "../../middleware/admin-auth.ts";
import { optionalToken, requireSignedIn, requireToken, requireUser } from "../../middleware/auth.ts";
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
      return requireAdmin(guard.permission, ...guard.scopes);
  }
}
