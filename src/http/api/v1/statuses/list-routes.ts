import type { Hono } from "hono";
import { getVisibleAccountKept } from "../../../../services/accounts/find-accounts.ts";
import { accountStatusesText, savedStatusesText } from "../../../../services/statuses/pages.ts";
import { tagJsonByName } from "../../../../services/statuses/tags.ts";
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
    const account = await getVisibleAccountKept(ctx, c.req.param("id"));
    const viewerId = viewerAccount(c)?.id;
    const { rows, body } = await accountStatusesText(
      ctx,
      account,
      viewerId,
      {
        pinned: p.pinned ?? false,
        excludeReplies: p.exclude_replies ?? false,
        excludeReblogs: p.exclude_reblogs ?? false,
        onlyMedia: p.only_media ?? false,
        tagged: p.tagged,
      },
      page,
    );
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return jsonText(c, body);
  });

  for (const [path, table, scope] of [
    ["/api/v1/favourites", "favourites", "read:favourites"],
    ["/api/v1/bookmarks", "bookmarks", "read:bookmarks"],
  ] as const) {
    app.get(path, requireUser("read", scope), async (c) => {
      const ctx = c.env.ctx;
      const page = pageParams(c, 20, 40);
      const viewerId = currentAccount(c).id;
      const { rows, body } = await savedStatusesText(ctx, table, viewerId, page);
      setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
      return jsonText(c, body);
    });
  }

  app.get("/api/v1/tags/:name", optionalToken("read", "read:follows"), async (c) => {
    const signedIn = c.get("auth")?.user !== undefined;
    return c.json(await tagJsonByName(c.env.ctx, c.req.param("name"), viewerAccount(c)?.id, signedIn));
  });
}
