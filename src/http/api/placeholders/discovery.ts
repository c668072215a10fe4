import { get, list, none, offset, pub } from "./dsl.ts";
import type { Answer, Placeholder } from "./types.ts";

/** Trends are offset-paginated and carry a `Link` header even when empty. */
const trends = (def: number): Answer => offset(def, def * 2, true);

/** 1.14 Search (peers only; search itself is built), 1.15 Trends, 1.27 Misc. */
export const discoveryRows: Placeholder[] = [
  get("/api/v1/peers/search", pub(), list(), { note: "`[]` (no known peer yet)" }),

  get("/api/v1/trends/tags", pub(), trends(10)),
  get("/api/v1/trends", pub(), trends(10)),
  get("/api/v1/trends/statuses", pub(), trends(20)),
  get("/api/v1/trends/links", pub(), trends(10)),

  get("/api/oembed", pub(), none(), { note: "404 (no status to embed exists)" }),
  get("/invite/:invite_code", pub(), none(), { note: "404 (no invite exists)" }),
];
