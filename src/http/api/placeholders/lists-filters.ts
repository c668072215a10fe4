import { del, get, list, none, post, put, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

const READ_LISTS = user("read:lists");
const WRITE_LISTS = user("write:lists");
const READ_FILTERS = user("read:filters");
const WRITE_FILTERS = user("write:filters");

/** 1.8 Lists, 1.9 Filters (v2 and the deprecated v1). No list or filter exists yet. */
export const listFilterRows: Placeholder[] = [
  get("/api/v1/lists", READ_LISTS, list()),
  get("/api/v1/lists/:id", READ_LISTS, none()),
  post("/api/v1/lists", WRITE_LISTS, unavailable()),
  put("/api/v1/lists/:id", WRITE_LISTS, none()),
  del("/api/v1/lists/:id", WRITE_LISTS, none()),
  get("/api/v1/lists/:id/accounts", READ_LISTS, none()),
  post("/api/v1/lists/:id/accounts", WRITE_LISTS, none()),
  del("/api/v1/lists/:id/accounts", WRITE_LISTS, none()),

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
