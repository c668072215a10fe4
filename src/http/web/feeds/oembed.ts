import type { Hono } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import { embeddableStatus, oembedFor, oembedSize } from "../../../services/web/feeds-oembed.ts";
import type { HonoEnv } from "../../types.ts";

/**
 * `GET /api/oembed?url=`: Mastodon's oEmbed answer for a local post's page URL or URI (`rich`,
 * an iframe of the post's embed page). 404 for anything else: unknown, remote, followers-only or
 * direct posts, posts of accounts the public may not see.
 */
export function oembedRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/oembed", async (c) => {
    const ctx = c.env.ctx;
    const url = c.req.query("url");
    if (url === undefined || url.trim() === "") throw new ApiError(400, "Missing parameter: url");
    const found = await embeddableStatus(ctx, url);
    if (!found) throw new ApiError(404, "Record not found");
    const body = oembedFor(ctx, found, {
      width: oembedSize(c.req.query("maxwidth")),
      height: oembedSize(c.req.query("maxheight")),
    });
    c.header("Cache-Control", "public, max-age=300");
    return c.json(body);
  });
}
