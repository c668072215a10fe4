import { anyToken, del, get, list, none, opt, page, post, put, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/** 1.2 Statuses, 1.12 Polls, 1.13 Scheduled statuses. No status, poll or scheduled status exists yet. */
export const statusRows: Placeholder[] = [
  post("/api/v1/statuses", user("write:statuses"), unavailable()),
  get("/api/v1/statuses", opt("read:statuses"), list(), { note: "`[]` (none of the `id[]` exists)" }),
  get("/api/v1/statuses/:id", opt("read:statuses"), none()),
  put("/api/v1/statuses/:id", user("write:statuses"), none()),
  del("/api/v1/statuses/:id", user("write:statuses"), none()),
  get("/api/v1/statuses/:id/context", opt("read:statuses"), none()),
  post("/api/v1/statuses/:id/translate", anyToken("read:statuses"), none()),
  get("/api/v1/statuses/:id/reblogged_by", opt("read:statuses"), none()),
  get("/api/v1/statuses/:id/favourited_by", opt("read:statuses"), none()),
  get("/api/v1/statuses/:id/quotes", user("read:statuses"), none()),
  post("/api/v1/statuses/:id/quotes/:quoting_status_id/revoke", user("write:statuses"), none()),
  put("/api/v1/statuses/:id/interaction_policy", user("write:statuses"), none()),
  post("/api/v1/statuses/:id/favourite", user("write:favourites"), none()),
  post("/api/v1/statuses/:id/unfavourite", user("write:favourites"), none()),
  post("/api/v1/statuses/:id/reblog", user("write:statuses"), none()),
  post("/api/v1/statuses/:id/unreblog", user("write:statuses"), none()),
  post("/api/v1/statuses/:id/bookmark", user("write:bookmarks"), none()),
  post("/api/v1/statuses/:id/unbookmark", user("write:bookmarks"), none()),
  post("/api/v1/statuses/:id/mute", user("write:mutes"), none()),
  post("/api/v1/statuses/:id/unmute", user("write:mutes"), none()),
  post("/api/v1/statuses/:id/pin", user("write:accounts"), none()),
  post("/api/v1/statuses/:id/unpin", user("write:accounts"), none()),
  get("/api/v1/statuses/:id/history", opt("read:statuses"), none()),
  get("/api/v1/statuses/:id/source", anyToken("read:statuses"), none()),

  get("/api/v1/polls/:id", opt("read:statuses"), none()),
  post("/api/v1/polls/:id/votes", user("write:statuses"), none()),

  get("/api/v1/scheduled_statuses", user("read:statuses"), page(20)),
  get("/api/v1/scheduled_statuses/:id", user("read:statuses"), none()),
  put("/api/v1/scheduled_statuses/:id", user("write:statuses"), none()),
  del("/api/v1/scheduled_statuses/:id", user("write:statuses"), none()),
];
