import type { Hono } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { registerAccount } from "../../../../services/accounts/register-account.ts";
import { serializeToken } from "../../../../services/oauth/tokens.ts";
import { requireToken } from "../../../middleware/auth.ts";
import { clientIpOf } from "../../../middleware/client-ip.ts";
import { throttle } from "../../../middleware/rate-limit.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { parseRegistration } from "./schemas.ts";

const THIRTY_MINUTES = 30 * 60 * 1000;

/** `POST /api/v1/accounts`: sign-up through an application's client-credentials token. */
export function registrationRoutes(app: Hono<HonoEnv>): void {
  app.post(
    "/api/v1/accounts",
    throttle("api_sign_up", 5, THIRTY_MINUTES, "ip"),
    requireToken("write", "write:accounts"),
    async (c) => {
      const auth = c.get("auth");
      if (!auth?.token.applicationId) throw new ApiError(401, "The access token is invalid");
      // Mastodon refuses user tokens here, with this exact wording.
      if (auth.token.userId !== null) {
        throw new ApiError(403, "This method requires an client credentials authentication");
      }
      const params = parseRegistration(await readParams(c));
      const { token } = await registerAccount(c.env.ctx, {
        ...params,
        applicationId: auth.token.applicationId,
        ip: clientIpOf(c),
      });
      c.header("Cache-Control", "no-store");
      return c.json(serializeToken(token));
    },
  );
}
