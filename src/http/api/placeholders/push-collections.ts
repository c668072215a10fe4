import { del, get, none, offset, opt, patch, post, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

const COLLECTIONS = { collections: [] };

/** 1.25 Collections (4.6), 1.26 Experimental (Web Push, 1.23, is built: api/v1/push). */
export const pushCollectionRows: Placeholder[] = [
  post("/api/v1/collections", user("write:collections"), unavailable()),
  get("/api/v1/collections/:id", opt("read:collections"), none()),
  patch("/api/v1/collections/:id", user("write:collections"), none()),
  del("/api/v1/collections/:id", user("write:collections"), none()),
  get("/api/v1/accounts/:id/collections", opt("read:collections"), offset(40, 80, COLLECTIONS), {
    account: "id",
    note: "`{collections: []}`",
  }),
  get("/api/v1/accounts/:id/in_collections", user("read:collections"), offset(40, 80, COLLECTIONS), {
    account: "id",
    note: "`{collections: []}`",
  }),
  post("/api/v1/collections/:collection_id/items", user("write:collections"), none()),
  del("/api/v1/collections/:collection_id/items/:id", user("write:collections"), none()),
  post("/api/v1/collections/:collection_id/items/:id/revoke", user("write:collections"), none()),

  get("/api/v1_alpha/async_refreshes/:id", user("read"), none()),
];
