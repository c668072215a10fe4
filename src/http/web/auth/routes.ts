import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { showAccount, submitEmailChange, submitPasswordChange } from "./account.ts";
import { confirm, showResend, showSetup, submitResend, submitSetup } from "./confirmation.ts";
import { showDelete, submitDelete } from "./delete.ts";
import { showPasswordEdit, showPasswordRequest, submitPasswordEdit, submitPasswordRequest } from "./passwords.ts";
import { showSignUp, submitSignUp } from "./sign-up.ts";

/** Sign-up, e-mail confirmation, password reset, the account page (e-mail and password change) and account deletion. */
export function authRoutes(app: Hono<HonoEnv>): void {
  app.get("/auth/sign_up", showSignUp);
  app.post("/auth/sign_up", submitSignUp);
  app.get("/auth/setup", showSetup);
  app.post("/auth/setup", submitSetup);

  app.get("/auth/confirmation", confirm);
  app.get("/auth/confirmation/new", showResend);
  // Devise's forms post to the collection, as here.
  app.post("/auth/confirmation", submitResend);

  app.get("/auth/password/new", showPasswordRequest);
  app.post("/auth/password", submitPasswordRequest);
  app.get("/auth/password/edit", showPasswordEdit);
  app.post("/auth/password/edit", submitPasswordEdit);
  // RFC 8615's well-known address for password managers' "change password" buttons.
  app.get("/.well-known/change-password", (c) => c.redirect("/auth/edit", 302));

  app.get("/auth/edit", showAccount);
  app.post("/auth/edit/email", submitEmailChange);
  app.post("/auth/edit/password", submitPasswordChange);

  app.get("/settings/delete", showDelete);
  app.post("/settings/delete", submitDelete);
}
