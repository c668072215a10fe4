import { anyToken, none, post } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/**
 * 1.2 Statuses (the rest is built: src/http/api/v1/statuses). 1.12 Polls and 1.13 Scheduled
 * statuses are built (src/http/api/v1/polls, src/http/api/v1/scheduled-statuses).
 */
export const statusRows: Placeholder[] = [post("/api/v1/statuses/:id/translate", anyToken("read:statuses"), none())];
