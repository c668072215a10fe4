import { del, get, json, list, none, page, post, unavailable, user } from "./dsl.ts";
import { unusedTag } from "./entities.ts";
import type { Placeholder } from "./types.ts";

const TAG_NOTE = "Tag with an empty 7-day history (no post used it yet); 404 for an impossible name";

/** 1.10 Tags, followed and featured tags (1.11 Media is built: src/http/api/v1/media). */
export const tagMediaRows: Placeholder[] = [
  post("/api/v1/tags/:name/follow", user("write:follows"), unavailable()),
  post("/api/v1/tags/:name/unfollow", user("write:follows"), json(unusedTag), { note: `${TAG_NOTE}, not followed` }),
  post("/api/v1/tags/:name/feature", user("write:accounts"), unavailable()),
  post("/api/v1/tags/:name/unfeature", user("write:accounts"), json(unusedTag), { note: `${TAG_NOTE}, not featured` }),
  get("/api/v1/followed_tags", user("read:follows"), page(100)),
  get("/api/v1/featured_tags", user("read:accounts"), list()),
  post("/api/v1/featured_tags", user("write:accounts"), unavailable()),
  del("/api/v1/featured_tags/:id", user("write:accounts"), none()),
  get("/api/v1/featured_tags/suggestions", user("read:accounts"), list()),
];
