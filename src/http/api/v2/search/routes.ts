import type { Context, Hono } from "hono";
import { ApiError, badRequest } from "../../../../lib/errors.ts";
import { accountsJson } from "../../../../services/accounts/views.ts";
import { searchAccounts } from "../../../../services/search/accounts.ts";
import { MAX_OFFSET, search } from "../../../../services/search/search.ts";
import { tagsJson } from "../../../../services/statuses/tags.ts";
import { statusesJson } from "../../../../services/statuses/views.ts";
import { currentAccount, optionalToken, requireUser, viewerAccount } from "../../../middleware/auth.ts";
import { type PageParams, pageParams } from "../../../pagination.ts";
import type { HonoEnv } from "../../../types.ts";
import { offsetParam, truthy } from "../../placeholders/query.ts";

/** A query parameter, undefined when absent or blank (Rails' `present?`). */
function present(c: Context<HonoEnv>, name: string): string | undefined {
  const v = c.req.query(name);
  return v === undefined || v.trim() === "" ? undefined : v;
}

/**
 * `limit`, `min_id` and `max_id` as Mastodon reads them for search: the default limit, clamped
 * to the max; an explicit 0 finds nothing.
 */
function searchPage(c: Context<HonoEnv>, def: number, max: number): PageParams {
  const page = pageParams(c, def, max);
  return c.req.query("limit")?.trim() === "0" ? { ...page, limit: 0 } : page;
}

/** `GET /api/v2/search` and `GET /api/v1/accounts/search`. */
export function searchRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v2/search", optionalToken("read", "read:search"), async (c) => {
    const ctx = c.env.ctx;
    const q = present(c, "q");
    if (q === undefined) throw badRequest("param is missing or the value is empty: q");
    // Mastodon's `user_signed_in?`: an app token is not enough to page or to resolve.
    const signedIn = c.get("auth")?.user !== undefined;
    if (!signedIn && present(c, "offset") !== undefined) {
      throw new ApiError(401, "Search queries pagination is not supported without authentication");
    }
    if (!signedIn && truthy(c.req.query("resolve"))) {
      throw new ApiError(401, "Search queries that resolve remote resources are not supported without authentication");
    }
    const page = searchPage(c, 20, 40);
    const viewer = viewerAccount(c);
    const results = await search(ctx, q, {
      type: present(c, "type"),
      limit: page.limit,
      offset: offsetParam(c),
      viewer,
      following: truthy(c.req.query("following")),
      accountId: present(c, "account_id"),
      minId: page.minId,
      maxId: page.maxId,
      excludeUnreviewed: truthy(c.req.query("exclude_unreviewed")),
      resolve: signedIn && truthy(c.req.query("resolve")),
    });
    const [accounts, statuses, hashtags] = await Promise.all([
      accountsJson(ctx, results.accounts),
      statusesJson(ctx, results.statuses, viewer?.id),
      tagsJson(ctx, results.hashtags, viewer?.id),
    ]);
    return c.json({ accounts, statuses, hashtags });
  });

  app.get("/api/v1/accounts/search", requireUser("read", "read:accounts"), async (c) => {
    const ctx = c.env.ctx;
    const { limit } = searchPage(c, 40, 80);
    const offset = Math.min(offsetParam(c), MAX_OFFSET);
    const accounts = await searchAccounts(ctx, c.req.query("q") ?? "", {
      viewerId: currentAccount(c).id,
      following: truthy(c.req.query("following")),
      limit,
      offset,
    });
    return c.json(await accountsJson(ctx, accounts));
  });
}
