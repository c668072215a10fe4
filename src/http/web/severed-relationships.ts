import type { Context, Hono } from "hono";
import { ApiError, ERR } from "../../lib/errors.ts";
import { grantsAny } from "../../lib/scopes.ts";
import { userLoginProblem } from "../../policies/accounts.ts";
import { severedRelationshipsCsv } from "../../services/moderation/severed-relationships.ts";
import type { HonoEnv } from "../types.ts";
import { loadSession } from "./session.ts";

/** Who downloads: a token with `read:follows` (or `read`), else the signed-in browser session. */
async function downloader(c: Context<HonoEnv>): Promise<string | Response> {
  const auth = c.get("auth");
  if (auth || c.get("badToken")) {
    if (!auth) throw new ApiError(401, ERR.invalidToken);
    if (!grantsAny(auth.token.scopes, ["read:follows"])) throw new ApiError(403, ERR.outsideScopes);
    if (!auth.user || !auth.account) throw new ApiError(422, ERR.userRequired);
    const problem = userLoginProblem(auth.user, auth.account);
    if (problem) throw new ApiError(403, ERR[problem]);
    return auth.account.id;
  }
  const session = await loadSession(c);
  if (!session?.user || !session.account || userLoginProblem(session.user, session.account)) {
    // As Mastodon's `authenticate_user!`: to the sign-in form, and back here after it.
    return c.redirect(`/auth/sign_in?return_to=${encodeURIComponent(c.req.path)}`, 302);
  }
  return session.account.id;
}

/**
 * Mastodon 4.3's downloads of the follows a moderation action cut (the `severed_relationships`
 * notification links to them): `following.csv` (an import file: address, boosts, notify,
 * languages) and `followers.csv` (addresses). `:id` is the notification's `event.id`.
 */
export function severedRelationshipRoutes(app: Hono<HonoEnv>): void {
  for (const which of ["following", "followers"] as const) {
    app.get(`/severed_relationships/:id/${which}.csv`, async (c) => {
      const who = await downloader(c);
      if (who instanceof Response) return who;
      const csv = await severedRelationshipsCsv(c.env.ctx, who, c.req.param("id"), which);
      return c.body(csv.body, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${csv.filename.replaceAll('"', "")}"`,
        "Cache-Control": "private, no-store",
      });
    });
  }
}
