import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppContext } from "../context.ts";
import { placeholderRoutes } from "./api/placeholders.ts";
import { accountRoutes } from "./api/v1/accounts/routes.ts";
import { instanceRoutes } from "./api/v1/instance/routes.ts";
import { federationBridge } from "./federation-bridge.ts";
import { authenticate } from "./middleware/auth.ts";
import { limitBody } from "./middleware/body-limit.ts";
import { clientIp } from "./middleware/client-ip.ts";
import { onError, onNotFound } from "./middleware/errors.ts";
import { apiRateLimit } from "./middleware/rate-limit.ts";
import { oauthRoutes } from "./oauth/routes.ts";
import type { HonoEnv } from "./types.ts";
import { webRoutes } from "./web/routes.ts";
import { staticRoutes } from "./web/static.ts";

const EXPOSED = [
  "Link",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-Request-Id",
  "Idempotency-Key",
];

/** Assembles the HTTP application: middleware, then one route module per area. */
export function createApp(ctx: AppContext): Hono<HonoEnv> {
  const app = new Hono<HonoEnv>({ strict: false });
  app.onError(onError);
  app.notFound(onNotFound);

  app.use("*", async (c, next) => {
    c.set("ctx", ctx);
    await next();
  });
  app.use("*", clientIp(ctx.config.trustedProxies));

  const corsMw = cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "Accept"],
    exposeHeaders: EXPOSED,
    maxAge: 86400,
  });
  for (const p of ["/api/*", "/oauth/token", "/oauth/revoke", "/oauth/userinfo", "/.well-known/*", "/nodeinfo/*"]) {
    app.use(p, corsMw);
  }

  // Bodies are bounded before they are read: uploads (avatars, headers) up to 20 MiB, forms 1 MiB.
  const tooLarge = limitBody(20 * 1024 * 1024);
  const formLimit = limitBody(1024 * 1024);
  app.use("/api/*", tooLarge);
  app.use("/oauth/*", formLimit);
  app.use("/auth/*", formLimit);

  app.use("/api/*", authenticate());
  app.use("/api/*", apiRateLimit());
  app.use("/oauth/userinfo", authenticate());

  // Fedify answers WebFinger and ActivityPub requests; everything else falls through.
  app.use("/.well-known/webfinger", federationBridge());
  app.use("/users/*", federationBridge());

  oauthRoutes(app);
  accountRoutes(app);
  instanceRoutes(app);
  webRoutes(app);
  staticRoutes(app);
  // Last: Mastodon-shaped empty answers for endpoints no issue has built yet.
  placeholderRoutes(app);
  return app;
}
