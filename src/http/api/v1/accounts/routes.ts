import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";
import { credentialsRoutes } from "./credentials-routes.ts";
import { emailConfirmationRoutes } from "./email-confirmation-routes.ts";
import { lookupRoutes } from "./lookup-routes.ts";
import { registrationRoutes } from "./registration-routes.ts";

/** Accounts: sign-up and e-mail confirmation, the own profile and preferences, public account reads. */
export function accountRoutes(app: Hono<HonoEnv>): void {
  registrationRoutes(app);
  emailConfirmationRoutes(app);
  credentialsRoutes(app);
  lookupRoutes(app);
}
