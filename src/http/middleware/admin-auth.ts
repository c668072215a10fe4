import type { MiddlewareHandler } from "hono";
import { ApiError, ERR } from "../../lib/errors.ts";
import { ADMIN_SESSION_SCOPES } from "../../lib/scopes.ts";
import { userLoginProblem } from "../../policies/accounts.ts";
import type { HonoEnv } from "../types.ts";
import { checkCsrf, loadSession } from "../web/session.ts";
import { requireUser, tagGuard } from "./auth.ts";
import { requirePermission } from "./role-permission.ts";

/** Mastodon's answer to a form or request without a valid authenticity token. */
export const CSRF_ERROR = "Can't verify CSRF token authenticity.";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The caller of an admin endpoint: a bearer token holding one of `scopes` (as `requireUser`), or,
 * when the request carries no token, the signed-in browser session of the session cookie. A
 * session stands for its user with every scope (as Mastodon's web session), but a request that
 * can change anything must carry the session's CSRF token in `X-CSRF-Token`: without a valid one
 * it is refused with 422 before the route runs. No token and no signed-in session: 401.
 */
export function adminCaller(...scopes: string[]): MiddlewareHandler<HonoEnv> {
  const byToken = requireUser(...scopes);
  return tagGuard(
    async (c, next) => {
      if (c.get("auth") || c.get("badToken")) return byToken(c, next);
      const session = await loadSession(c);
      if (!session?.user || !session.account) throw new ApiError(401, ERR.invalidToken);
      if (!SAFE_METHODS.has(c.req.method) && !checkCsrf(c, session, c.req.header("x-csrf-token"))) {
        throw new ApiError(422, CSRF_ERROR);
      }
      const problem = userLoginProblem(session.user, session.account);
      if (problem) throw new ApiError(403, ERR[problem]);
      c.set("auth", {
        token: {
          id: "session",
          applicationId: null,
          userId: session.user.id,
          scopes: [...ADMIN_SESSION_SCOPES],
          revokedAt: null,
          lastUsedAt: null,
          createdAt: new Date().toISOString(),
        },
        tokenHash: "",
        user: session.user,
        account: session.account,
      });
      await next();
    },
    { kind: "user", scopes },
  );
}

/**
 * The guard of every admin endpoint: the caller (`adminCaller`: a token with one of `scopes`, or
 * a staff session with its CSRF token) must hold a role granting `permission` (403 otherwise).
 * Spread it into the route: `app.get(path, ...requireAdmin(P.manageUsers, "admin:read:accounts"), h)`.
 */
export function requireAdmin(
  permission: number,
  ...scopes: string[]
): [MiddlewareHandler<HonoEnv>, MiddlewareHandler<HonoEnv>] {
  return [adminCaller(...scopes), requirePermission(permission)];
}
