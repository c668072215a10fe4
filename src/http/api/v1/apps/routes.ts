import type { Hono } from "hono";
import { notFound } from "../../../../lib/errors.ts";
import { getVapidKeys } from "../../../../services/instance/vapid.ts";
import {
  applicationJson,
  credentialApplicationJson,
  registerApplication,
  tokenApplication,
} from "../../../../services/oauth/apps.ts";
import { requireToken } from "../../../middleware/auth.ts";
import { throttle } from "../../../middleware/rate-limit.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

const TEN_MIN = 10 * 60 * 1000;

/** `POST /api/v1/apps` (registration, public) and `GET /api/v1/apps/verify_credentials`. */
export function appsRoutes(app: Hono<HonoEnv>): void {
  // Mastodon allows 5 registrations per 10 minutes per IP.
  app.post("/api/v1/apps", throttle("apps", 5, TEN_MIN, "ip"), async (c) => {
    const params = await readParams(c);
    const { application, clientSecret } = await registerApplication(c.env.ctx, params);
    return c.json(credentialApplicationJson(application, clientSecret, (await getVapidKeys(c.env.ctx)).publicKey));
  });

  // Any valid token will do, app or user, whatever its scopes (Mastodon 4.3).
  app.get("/api/v1/apps/verify_credentials", requireToken(), async (c) => {
    const application = await tokenApplication(c.env.ctx, c.get("auth")?.token.applicationId ?? null);
    if (!application) throw notFound();
    return c.json(applicationJson(application, (await getVapidKeys(c.env.ctx)).publicKey));
  });
}
