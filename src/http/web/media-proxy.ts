import type { Hono } from "hono";
import { proxiedMediaKey } from "../../services/media/proxy.ts";
import { throttle } from "../middleware/rate-limit.ts";
import type { HonoEnv } from "../types.ts";

/**
 * `GET /media_proxy/:id/original|small` (Mastodon's path): a remote attachment of a public or
 * unlisted post, cached here on demand when it is not (yet, or any more after the retention
 * period), then a redirect to the cached copy. Serializers point uncached remote media here.
 */
export function mediaProxyRoutes(app: Hono<HonoEnv>): void {
  // Mastodon's throttle_media_proxy: 30 requests per 10 minutes per IP.
  app.get("/media_proxy/:id{[0-9]+}/:variant{original|small}", throttle("media_proxy", 30, 10 * 60_000), async (c) => {
    const ctx = c.env.ctx;
    const variant = c.req.param("variant") === "small" ? "small" : "original";
    const key = await proxiedMediaKey(ctx, c.req.param("id"), variant);
    if (!key) return c.json({ error: "Record not found" }, 404);
    // A `crossorigin` load checks CORS on every hop of a redirect, not only on the file.
    c.header("Access-Control-Allow-Origin", "*");
    return c.redirect(ctx.blobs.url(key), 302);
  });
}
