import { get, none, opt, page, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/** 1.3 Timelines, 1.6 Favourites and bookmarks, 1.19 Markers (conversations are built). */
export const timelineRows: Placeholder[] = [
  get("/api/v1/timelines/link", opt("read:statuses"), page(20)),
  get("/api/v1/timelines/list/:list_id", user("read:lists"), none()),
];
