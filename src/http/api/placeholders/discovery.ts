import type { Context } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import { pageParams } from "../../pagination.ts";
import type { HonoEnv } from "../../types.ts";
import { del, get, json, list, none, offset, opt, post, pub, put, signedIn, user } from "./dsl.ts";
import { offsetParam, truthy } from "./query.ts";
import type { Answer, Placeholder } from "./types.ts";

/**
 * `GET /api/v2/search`: public, but resolving remote resources and paging with `offset` need a
 * signed-in user (Mastodon answers 401 otherwise). Nothing is searchable yet.
 */
function search(c: Context<HonoEnv>): Record<string, unknown> {
  pageParams(c, 20, 40);
  offsetParam(c);
  const paged = (c.req.query("offset") ?? "").trim() !== "";
  const signedInUser = c.get("auth")?.user !== undefined;
  if (truthy(c.req.query("resolve")) && !signedInUser) {
    throw new ApiError(401, "Search queries that resolve remote resources are not supported without authentication");
  }
  if (paged && !signedInUser) {
    throw new ApiError(401, "Search queries pagination is not supported without authentication");
  }
  return { accounts: [], statuses: [], hashtags: [] };
}

/** Trends are offset-paginated and carry a `Link` header even when empty. */
const trends = (def: number): Answer => offset(def, def * 2, true);

/** 1.14 Search, 1.15 Trends, 1.18 Announcements, 1.27 Misc, 1.30 streaming health. */
export const discoveryRows: Placeholder[] = [
  get("/api/v2/search", opt("read:search"), json(search), {
    note: "`{accounts: [], statuses: [], hashtags: []}`; `resolve`/`offset` need a user (401)",
  }),
  get("/api/v1/peers/search", pub(), list(), { note: "`[]` (no known peer yet)" }),

  get("/api/v1/trends/tags", pub(), trends(10)),
  get("/api/v1/trends", pub(), trends(10)),
  get("/api/v1/trends/statuses", pub(), trends(20)),
  get("/api/v1/trends/links", pub(), trends(10)),

  get("/api/v1/announcements", signedIn(), list()),
  post("/api/v1/announcements/:id/dismiss", user("write:accounts"), none()),
  put("/api/v1/announcements/:id/reactions/:name", user("write:favourites"), none()),
  del("/api/v1/announcements/:id/reactions/:name", user("write:favourites"), none()),

  get("/api/oembed", pub(), none(), { note: "404 (no status to embed exists)" }),
  get("/invite/:invite_code", pub(), none(), { note: "404 (no invite exists)" }),
  get("/api/v1/streaming/health", pub(), { kind: "text", body: "OK" }, { note: "text `OK`" }),
];
