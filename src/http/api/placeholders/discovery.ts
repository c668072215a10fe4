import { del, get, list, none, offset, post, pub, put, signedIn, user } from "./dsl.ts";
import type { Answer, Placeholder } from "./types.ts";

/** Trends are offset-paginated and carry a `Link` header even when empty. */
const trends = (def: number): Answer => offset(def, def * 2, true);

/** 1.14 Search (peers only; search itself is built), 1.15 Trends, 1.18 Announcements, 1.27 Misc, 1.30 streaming health. */
export const discoveryRows: Placeholder[] = [
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
