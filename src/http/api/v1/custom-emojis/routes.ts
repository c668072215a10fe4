import type { Hono } from "hono";
import { listedEmojisJson } from "../../../../services/custom-emojis/views.ts";
import type { HonoEnv } from "../../../types.ts";
import { jsonText, PUBLIC_CACHE } from "../instance/documents.ts";

/**
 * 1.17 Custom emojis. Public: a sent token is ignored. The listing is one query on a small table,
 * so it is not kept in the process (an emoji added with `gannet emoji` shows at once); clients
 * and proxies may keep it 3 minutes, as Mastodon lets them.
 */
export function customEmojiRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/custom_emojis", async (c) =>
    jsonText(c, JSON.stringify(await listedEmojisJson(c.env.ctx)), PUBLIC_CACHE.instance),
  );
}
