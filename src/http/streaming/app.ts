import { Hono } from "hono";
import { applyCors } from "../middleware/cors.ts";
import { onError, onNotFound } from "../middleware/errors.ts";
import { requestLog } from "../middleware/request-log.ts";
import { nulError } from "../params.ts";
import type { HonoEnv } from "../types.ts";
import { streamingRoutes } from "./routes.ts";

/**
 * The HTTP side of a `streaming` process (GANNET_ROLE=streaming): the server-sent-event streams
 * and `/api/v1/streaming/health` (the WebSocket endpoint is attached to the server itself), plus
 * `/health` for load balancers. Everything else is a 404, as on Mastodon's streaming server.
 * `logRequests` (LOG_REQUESTS) logs each request, as the full application does.
 */
export function createStreamingApp(opts: { logRequests?: boolean } = {}): Hono<HonoEnv> {
  const app = new Hono<HonoEnv>({ strict: false });
  app.onError(onError);
  app.notFound(onNotFound);
  if (opts.logRequests) app.use(requestLog());
  app.use("/api/*", async (c, next) => {
    const preflight = applyCors(c);
    if (preflight) return preflight;
    if (c.req.url.includes("%00")) throw nulError();
    await next();
  });
  streamingRoutes(app);
  app.get("/health", (c) => c.text("OK"));
  return app;
}
