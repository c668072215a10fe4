import type { Context, Hono } from "hono";
import { statusesText } from "../../../../services/statuses/views-text.ts";
import { trendsCache } from "../../../../services/trends/cache.ts";
import { readerLanguages } from "../../../../services/trends/languages.ts";
import {
  linkTimeline,
  trendingLinksJson,
  trendingStatusesText,
  trendingTagsJson,
} from "../../../../services/trends/lists.ts";
import { jsonText } from "../../../json-text.ts";
import { optionalToken, viewerAccount } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader, setOffsetLinkHeader } from "../../../pagination.ts";
import type { HonoEnv } from "../../../types.ts";
import { offsetParam } from "../../placeholders/query.ts";

type Kind = "tags" | "statuses" | "links";

/** Shared caches may keep an anonymous answer as long as this process does (services/trends/cache.ts). */
const ANONYMOUS_CACHE = "public, max-age=15, stale-while-revalidate=30, stale-if-error=86400";

/** What one page of a trends list is: its JSON and how many items the page found (for `Link`). */
type PageAnswer = { body: string | Buffer; count: number };

/** The signed-in reader of a public endpoint (with their settings), if any. */
function reader(c: Context<HonoEnv>) {
  const account = viewerAccount(c);
  return account === undefined ? undefined : { account, user: c.get("auth")?.user };
}

/**
 * Answers a page of a trends list. Anonymous answers are kept (services/trends/cache.ts) by the
 * request's path and query and the languages they were made for: they are the same for everyone
 * until the next scoring or review, which drops them in every process.
 */
async function trendsPage(
  c: Context<HonoEnv>,
  kind: Kind,
  def: number,
  max: number,
  make: (page: { limit: number; offset: number }, languages: string[]) => Promise<PageAnswer>,
): Promise<Response> {
  const ctx = c.env.ctx;
  // As Mastodon (`vary_by`, `cache_if_unauthenticated!`): answers differ by token and languages.
  c.header("Vary", kind === "tags" ? "Authorization" : "Authorization, Accept-Language");
  const { limit } = pageParams(c, def, max);
  const offset = offsetParam(c);
  const who = reader(c);
  // Hashtags trend in every language.
  const languages =
    kind === "tags" ? [] : readerLanguages(who?.user, c.req.header("accept-language"), ctx.config.defaultLocale);
  // Any token (a user's or an app's, `auth` is null without one): rendered for it, not kept.
  if (who !== undefined || c.get("auth")) {
    const { body, count } = await make({ limit, offset }, languages);
    setOffsetLinkHeader(c, limit, offset, count);
    return jsonText(c, body);
  }
  c.header("Cache-Control", ANONYMOUS_CACHE);
  const cache = trendsCache(ctx);
  const url = c.req.url;
  const query = url.indexOf("?");
  // By path, not kind: the two paths of hashtags link to themselves.
  const key = `${c.req.path}|${languages.join(",")}|${query < 0 ? "" : url.slice(query)}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    c.header("Link", hit.link);
    return jsonText(c, hit.body);
  }
  const { body, count } = await make({ limit, offset }, languages);
  cache.set(key, { body, link: setOffsetLinkHeader(c, limit, offset, count) });
  return jsonText(c, body);
}

const json = (list: Record<string, unknown>[]): PageAnswer => ({ body: JSON.stringify(list), count: list.length });

/** 1.15 Trends (tags, statuses, links) and Mastodon 4.3's link timeline. */
export function trendRoutes(app: Hono<HonoEnv>): void {
  const tags = (c: Context<HonoEnv>) =>
    trendsPage(c, "tags", 10, 20, async (page) => json(await trendingTagsJson(c.env.ctx, reader(c)?.account.id, page)));
  app.get("/api/v1/trends/tags", optionalToken(), tags);
  // The path before Mastodon 3.5.
  app.get("/api/v1/trends", optionalToken(), tags);

  app.get("/api/v1/trends/statuses", optionalToken(), (c) =>
    trendsPage(c, "statuses", 20, 40, (page, languages) =>
      trendingStatusesText(c.env.ctx, reader(c)?.account.id, languages, page),
    ),
  );

  app.get("/api/v1/trends/links", optionalToken(), (c) =>
    trendsPage(c, "links", 10, 20, async (page, languages) =>
      json(await trendingLinksJson(c.env.ctx, languages, page)),
    ),
  );

  app.get("/api/v1/timelines/link", optionalToken("read", "read:statuses"), async (c) => {
    const page = pageParams(c, 20, 40);
    const viewerId = viewerAccount(c)?.id;
    const result = await linkTimeline(c.env.ctx, viewerId, c.req.query("url"), page);
    setLinkHeader(c, page, result.rows.length, result.rows[0]?.id, result.rows.at(-1)?.id);
    return jsonText(c, await statusesText(c.env.ctx, result.visible, viewerId, { filterContext: "public" }));
  });
}
