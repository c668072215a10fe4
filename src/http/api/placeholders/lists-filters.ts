import { del, get, list, none, post, put, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

const READ_LISTS = user("read:lists");
const WRITE_LISTS = user("write:lists");

/** 1.8 Lists (filters are built: src/http/api/v2/filters, src/http/api/v1/filters). No list exists yet. */
export const listFilterRows: Placeholder[] = [
  get("/api/v1/lists", READ_LISTS, list()),
  get("/api/v1/lists/:id", READ_LISTS, none()),
  post("/api/v1/lists", WRITE_LISTS, unavailable()),
  put("/api/v1/lists/:id", WRITE_LISTS, none()),
  del("/api/v1/lists/:id", WRITE_LISTS, none()),
  get("/api/v1/lists/:id/accounts", READ_LISTS, none()),
  post("/api/v1/lists/:id/accounts", WRITE_LISTS, none()),
  del("/api/v1/lists/:id/accounts", WRITE_LISTS, none()),
];
