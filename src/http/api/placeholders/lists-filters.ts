import { del, get, list, none, post, put, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

const READ_FILTERS = user("read:filters");
const WRITE_FILTERS = user("write:filters");

/** 1.9 Filters (v2 and the deprecated v1); lists are built (src/http/api/v1/lists). No filter exists yet. */
export const listFilterRows: Placeholder[] = [
  get("/api/v2/filters", READ_FILTERS, list()),
  get("/api/v2/filters/:id", READ_FILTERS, none()),
  post("/api/v2/filters", WRITE_FILTERS, unavailable()),
  put("/api/v2/filters/:id", WRITE_FILTERS, none()),
  del("/api/v2/filters/:id", WRITE_FILTERS, none()),
  get("/api/v2/filters/:filter_id/keywords", READ_FILTERS, none()),
  post("/api/v2/filters/:filter_id/keywords", WRITE_FILTERS, none()),
  get("/api/v2/filters/keywords/:id", READ_FILTERS, none()),
  put("/api/v2/filters/keywords/:id", WRITE_FILTERS, none()),
  del("/api/v2/filters/keywords/:id", WRITE_FILTERS, none()),
  get("/api/v2/filters/:filter_id/statuses", READ_FILTERS, none()),
  post("/api/v2/filters/:filter_id/statuses", WRITE_FILTERS, none()),
  get("/api/v2/filters/statuses/:id", READ_FILTERS, none()),
  del("/api/v2/filters/statuses/:id", WRITE_FILTERS, none()),

  get("/api/v1/filters", READ_FILTERS, list()),
  get("/api/v1/filters/:id", READ_FILTERS, none()),
  post("/api/v1/filters", WRITE_FILTERS, unavailable()),
  put("/api/v1/filters/:id", WRITE_FILTERS, none()),
  del("/api/v1/filters/:id", WRITE_FILTERS, none()),
];
