import { get, none, post, put, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/**
 * 1.2 Statuses (the rest is built: src/http/api/v1/statuses). 1.12 Polls and 1.13 Scheduled
 * statuses are built (src/http/api/v1/polls, src/http/api/v1/scheduled-statuses).
 */
export const statusRows: Placeholder[] = [
  get("/api/v1/statuses/:id/quotes", user("read:statuses"), none()),
  post("/api/v1/statuses/:id/quotes/:quoting_status_id/revoke", user("write:statuses"), none()),
  put("/api/v1/statuses/:id/interaction_policy", user("write:statuses"), none()),
];
