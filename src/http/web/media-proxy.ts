import type { Hono } from "hono";
import { cacheAttachment } from "../../services/media/remote-cache.ts";
import { isVisible } from "../../services/statuses/views.ts";
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
    const notFound = () => c.json({ error: "Record not found" }, 404);
    let media = await ctx.repos.media.getById(c.req.param("id"));
    if (!media?.remoteUrl || media.statusId === null) return notFound();
    const status = await ctx.repos.statuses.getById(media.statusId);
    if (!status || (status.visibility !== "public" && status.visibility !== "unlisted")) return notFound();
    if (!(await isVisible(ctx, status, undefined))) return notFound();
    if (!media.fileKey) media = await cacheAttachment(ctx, media);
    const key = c.req.param("variant") === "small" ? (media?.smallKey ?? media?.fileKey) : media?.fileKey;
    if (!key) return notFound();
    // A `crossorigin` load checks CORS on every hop of a redirect, not only on the file.
    c.header("Access-Control-Allow-Origin", "*");
    return c.redirect(ctx.blobs.url(key), 302);
  });
}
