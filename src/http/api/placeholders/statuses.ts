import { anyToken, del, get, none, opt, page, post, put, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/** 1.2 Statuses (the rest is built: src/http/api/v1/statuses), 1.12 Polls, 1.13 Scheduled statuses. */
export const statusRows: Placeholder[] = [
  post("/api/v1/statuses/:id/translate", anyToken("read:statuses"), none()),
  get("/api/v1/statuses/:id/quotes", user("read:statuses"), none()),
  post("/api/v1/statuses/:id/quotes/:quoting_status_id/revoke", user("write:statuses"), none()),
  put("/api/v1/statuses/:id/interaction_policy", user("write:statuses"), none()),

  get("/api/v1/polls/:id", opt("read:statuses"), none()),
  post("/api/v1/polls/:id/votes", user("write:statuses"), none()),

  get("/api/v1/scheduled_statuses", user("read:statuses"), page(20)),
  get("/api/v1/scheduled_statuses/:id", user("read:statuses"), none()),
  put("/api/v1/scheduled_statuses/:id", user("write:statuses"), none()),
  del("/api/v1/scheduled_statuses/:id", user("write:statuses"), none()),
];
