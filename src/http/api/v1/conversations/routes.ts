import type { Hono } from "hono";
import { notFound } from "../../../../lib/errors.ts";
import { conversationsText } from "../../../../services/conversations/kept-text.ts";
import { markConversation, removeConversation } from "../../../../services/conversations/manage.ts";
import { conversationsJson } from "../../../../services/conversations/views.ts";
import { jsonText } from "../../../json-text.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import type { HonoEnv } from "../../../types.ts";

const READ = ["read", "read:statuses"];
const WRITE = ["write", "write:conversations"];

/** 1.20 Conversations (direct messages), paged by their last status as Mastodon does. */
export function conversationRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/conversations", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 20, 40);
    const viewerId = currentAccount(c).id;
    const p = await conversationsText(ctx, viewerId, page);
    setLinkHeader(c, page, p.count, p.firstId, p.lastId);
    return jsonText(c, p.body);
  });

  app.delete("/api/v1/conversations/:id{[0-9]+}", requireUser(...WRITE), async (c) => {
    if (!(await removeConversation(c.env.ctx, currentAccount(c).id, c.req.param("id")))) throw notFound();
    return c.json({});
  });

  for (const [action, unread] of [
    ["read", false],
    ["unread", true],
  ] as const) {
    app.post(`/api/v1/conversations/:id{[0-9]+}/${action}`, requireUser(...WRITE), async (c) => {
      const ctx = c.env.ctx;
      const viewerId = currentAccount(c).id;
      const conversation = await markConversation(ctx, viewerId, c.req.param("id"), unread);
      if (!conversation) throw notFound();
      const [json] = await conversationsJson(ctx, [conversation], viewerId);
      return c.json(json);
    });
  }
}
