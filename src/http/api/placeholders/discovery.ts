import { get, list, none, pub } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/** 1.14 Search (peers only; search itself is built), 1.27 Misc (1.15 Trends are built: v1/trends). */
export const discoveryRows: Placeholder[] = [
  get("/api/v1/peers/search", pub(), list(), { note: "`[]` (no known peer yet)" }),

  get("/invite/:invite_code", pub(), none(), { note: "404 (no invite exists)" }),
];
