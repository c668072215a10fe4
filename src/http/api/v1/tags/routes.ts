import type { Hono } from "hono";
import { notFound } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import { getVisibleAccount } from "../../../../services/accounts/find-accounts.ts";
import * as tags from "../../../../services/tags/curation.ts";
import { currentAccount, optionalToken, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

/** Followed and featured hashtags. */
export function tagRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/tags/:name/follow", requireUser("write:follows"), async (c) =>
    c.json(await tags.followTag(c.env.ctx, currentAccount(c), c.req.param("name"))),
  );
  app.post("/api/v1/tags/:name/unfollow", requireUser("write:follows"), async (c) =>
    c.json(await tags.unfollowTag(c.env.ctx, currentAccount(c), c.req.param("name"))),
  );
  app.post("/api/v1/tags/:name/feature", requireUser("write:accounts"), async (c) =>
    c.json(await tags.featureTag(c.env.ctx, currentAccount(c), c.req.param("name"))),
  );
  app.post("/api/v1/tags/:name/unfeature", requireUser("write:accounts"), async (c) =>
    c.json(await tags.unfeatureTag(c.env.ctx, currentAccount(c), c.req.param("name"))),
  );

  /** Paged by the follow's id (clients follow the Link header). */
  app.get("/api/v1/followed_tags", requireUser("read:follows"), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 100, 200);
    const account = currentAccount(c);
    const rows = await tags.followedTagsPage(ctx, account.id, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await tags.linkedTagsJson(ctx, rows, account.id));
  });

  app.get("/api/v1/featured_tags", requireUser("read:accounts"), async (c) =>
    c.json(await tags.featuredTagsJson(c.env.ctx, currentAccount(c))),
  );
  app.post("/api/v1/featured_tags", requireUser("write:accounts"), async (c) => {
    const params = await readParams(c);
    return c.json(await tags.createFeaturedTag(c.env.ctx, currentAccount(c), params.name));
  });
  app.get("/api/v1/featured_tags/suggestions", requireUser("read:accounts"), async (c) =>
    c.json(await tags.featuredTagSuggestions(c.env.ctx, currentAccount(c))),
  );
  app.delete("/api/v1/featured_tags/:id", requireUser("write:accounts"), async (c) => {
    const id = c.req.param("id");
    if (!isId(id)) throw notFound();
    await tags.deleteFeaturedTag(c.env.ctx, currentAccount(c), id);
    return c.json({});
  });

  /** Anyone's featured tags; none for a suspended account. */
  app.get("/api/v1/accounts/:id{[0-9]+}/featured_tags", optionalToken("read", "read:accounts"), async (c) => {
    const ctx = c.env.ctx;
    const account = await getVisibleAccount(ctx, c.req.param("id"));
    if (account.suspendedAt !== null) return c.json([]);
    return c.json(await tags.featuredTagsJson(ctx, account));
  });
}
