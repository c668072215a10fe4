import type { Hono } from "hono";
import { credentialAccountJson } from "../../../../services/accounts/views.ts";
import { currentAccount, currentUser, requireUser } from "../../../middleware/auth.ts";
import type { HonoEnv } from "../../../types.ts";

export function accountRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/accounts/verify_credentials", requireUser("profile", "read:accounts"), async (c) => {
    return c.json(await credentialAccountJson(c.var.ctx, currentAccount(c), currentUser(c)));
  });
}
