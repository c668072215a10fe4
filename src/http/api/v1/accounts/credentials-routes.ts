import type { Context, Hono } from "hono";
import { removeProfileImage } from "../../../../services/accounts/profile-images.ts";
import { updateCredentials } from "../../../../services/accounts/update-credentials.ts";
import { credentialAccountBytes, credentialAccountJson, preferencesJson } from "../../../../services/accounts/views.ts";
import { jsonText } from "../../../json-text.ts";
import { currentAccount, currentUser, requireUser } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { parseCredentialsUpdate } from "./schemas.ts";

async function updateCredentialsHandler(c: Context<HonoEnv>) {
  const ctx = c.env.ctx;
  const input = await parseCredentialsUpdate(await readParams(c));
  const { account, user } = await updateCredentials(ctx, currentAccount(c), currentUser(c), input);
  return c.json(await credentialAccountJson(ctx, account, user));
}

/** The signed-in user's own account: credentials, profile images, preferences. */
export function credentialsRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/accounts/verify_credentials", requireUser("profile", "read:accounts"), async (c) => {
    return jsonText(c, await credentialAccountBytes(c.env.ctx, currentAccount(c), currentUser(c)));
  });

  // Clients use PATCH (the documented method); some older ones send PUT.
  app.patch("/api/v1/accounts/update_credentials", requireUser("write:accounts"), updateCredentialsHandler);
  app.put("/api/v1/accounts/update_credentials", requireUser("write:accounts"), updateCredentialsHandler);

  for (const kind of ["avatar", "header"] as const) {
    app.delete(`/api/v1/profile/${kind}`, requireUser("write:accounts"), async (c) => {
      const ctx = c.env.ctx;
      const account = await removeProfileImage(ctx, currentAccount(c), kind);
      return c.json(await credentialAccountJson(ctx, account, currentUser(c)));
    });
  }

  app.get("/api/v1/preferences", requireUser("read:accounts"), (c) =>
    c.json(preferencesJson(currentAccount(c), currentUser(c))),
  );
}
