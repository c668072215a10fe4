import type { Hono } from "hono";
import type { Status } from "../../../../db/repositories/statuses.ts";
import { getVisibleAccount } from "../../../../services/accounts/find-accounts.ts";
import { tagJson, unusedTagJson } from "../../../../services/statuses/tags.ts";
import { filterVisible } from "../../../../services/statuses/views.ts";
import { statusesText } from "../../../../services/statuses/views-text.ts";
import { jsonText } from "../../../json-text.ts";
import { currentAccount, optionalToken, requireUser, viewerAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import type { HonoEnv } from "../../../types.ts";
import { validate } from "../../../validate.ts";
import { accountStatusesSchema } from "./schemas.ts";

/** An account's statuses, the caller's favourites and bookmarks, and hashtags. */
export function listRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/accounts/:id{[0-9]+}/statuses", optionalToken("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 20, 40);
    const p = validate(accountStatusesSchema, c.req.query());
    const account = await getVisibleAccount(ctx, c.req.param("id"));
    const viewerId = viewerAccount(c)?.id;
    const reader = { accountId: viewerId };
    let rows: Status[] = [];
    if (p.pinned) {
      rows = page.maxId || page.minId || page.sinceId ? [] : await ctx.repos.statusPages.pinnedOf(account.id, reader);
    } else {
      rows = await ctx.repos.statusPages.accountStatusesPage(
        account.id,
        reader,
        {
          excludeReplies: p.exclude_replies ?? false,
          excludeReblogs: p.exclude_reblogs ?? false,
          onlyMedia: p.only_media ?? false,
          tagged: p.tagged,
        },
        page,
      );
    }
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    // The account's own posts stay on its profile even when the viewer blocks or mutes it (Mastodon).
    const visible = await filterVisible(ctx, rows, viewerId, { keep: account.id });
    return jsonText(c, await statusesText(ctx, visible, viewerId, { filterContext: "account" }));
  });

  for (const [path, table, scope] of [
    ["/api/v1/favourites", "favourites", "read:favourites"],
    ["/api/v1/bookmarks", "bookmarks", "read:bookmarks"],
  ] as const) {
    app.get(path, requireUser("read", scope), async (c) => {
      const ctx = c.env.ctx;
      const page = pageParams(c, 20, 40);
      const viewerId = currentAccount(c).id;
      const rows = await ctx.repos.statusInteractions.statusesPage(table, viewerId, page);
      setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
      const visible = await filterVisible(
        ctx,
        rows.map((r) => r.status),
        viewerId,
        { keep: "all" },
      );
      return jsonText(c, await statusesText(ctx, visible, viewerId));
    });
  }

  app.get("/api/v1/tags/:name", optionalToken("read", "read:follows"), async (c) => {
    const ctx = c.env.ctx;
    const tag = await ctx.repos.statuses.getTag(c.req.param("name"));
    if (!tag) return c.json(unusedTagJson(ctx, c.req.param("name"), c.get("auth")?.user !== undefined));
    return c.json(await tagJson(ctx, tag, viewerAccount(c)?.id));
  });
}
