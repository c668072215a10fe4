import type { Context, Hono } from "hono";
import { ApiError, ERR } from "../../../../lib/errors.ts";
import { grantsAny } from "../../../../lib/scopes.ts";
import { awaitingConfirmation, resendConfirmation } from "../../../../services/accounts/email-confirmation.ts";
import type { User } from "../../../../services/accounts/types.ts";
import { throttle } from "../../../middleware/rate-limit.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { scalarText } from "./schemas.ts";

const FIVE_MINUTES = 5 * 60 * 1000;
const THIRTY_MINUTES = 30 * 60 * 1000;

/**
 * The signed-in user of these endpoints. They serve users whose e-mail is not confirmed yet,
 * so `requireUser` (which refuses them) cannot guard them; only disabled users are refused.
 */
function tokenUser(c: Context<HonoEnv>, anyOf: readonly string[]): User {
  const auth = c.get("auth");
  if (!auth) throw new ApiError(401, ERR.invalidToken);
  if (!grantsAny(auth.token.scopes, anyOf)) throw new ApiError(403, ERR.outsideScopes);
  if (!auth.user || !auth.account) throw new ApiError(422, ERR.userRequired);
  if (auth.user.disabled || auth.account.suspendedAt !== null) throw new ApiError(403, ERR.disabled);
  return auth.user;
}

export function emailConfirmationRoutes(app: Hono<HonoEnv>): void {
  app.post(
    "/api/v1/emails/confirmations",
    throttle("email_confirmations", 25, FIVE_MINUTES, "ip"),
    throttle("email_confirmations_user", 5, THIRTY_MINUTES, "user"),
    async (c) => {
      const auth = c.get("auth");
      if (!auth) throw new ApiError(401, ERR.invalidToken);
      if (!grantsAny(auth.token.scopes, ["write", "write:accounts"])) throw new ApiError(403, ERR.outsideScopes);
      const user = auth.user;
      if (!user?.createdByApplicationId || user.createdByApplicationId !== auth.token.applicationId) {
        throw new ApiError(403, "This method is only available to the application the user originally signed-up with");
      }
      if (!awaitingConfirmation(user)) {
        throw new ApiError(403, "This method is only available while the e-mail is awaiting confirmation");
      }
      const params = await readParams(c);
      const email = params.email === undefined ? undefined : (scalarText(params.email) ?? "");
      await resendConfirmation(c.env.ctx, user, email);
      return c.json({});
    },
  );

  app.get("/api/v1/emails/check_confirmation", async (c) => {
    const user = tokenUser(c, ["read", "read:accounts"]);
    return c.json(user.confirmedAt !== null);
  });
}
