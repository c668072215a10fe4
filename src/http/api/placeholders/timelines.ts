import { del, get, none, opt, page, post, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/** 1.3 Timelines, 1.6 Favourites and bookmarks, 1.19 Markers, 1.20 Conversations. */
export const timelineRows: Placeholder[] = [
  get("/api/v1/timelines/link", opt("read:statuses"), page(20)),
  get("/api/v1/timelines/list/:list_id", user("read:lists"), none()),

  get("/api/v1/conversations", user("read:statuses"), page(20)),
  del("/api/v1/conversations/:id", user("write:conversations"), none()),
  post("/api/v1/conversations/:id/read", user("write:conversations"), none()),
  post("/api/v1/conversations/:id/unread", user("write:conversations"), none()),
];
