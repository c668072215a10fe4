import { del, empty, get, json, page, post, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/** 1.7 Domain blocks (follow requests, blocks, mutes and reports are built elsewhere). */
export const socialRows: Placeholder[] = [
  get("/api/v1/domain_blocks", user("read:blocks"), page(100)),
  post("/api/v1/domain_blocks", user("write:blocks"), unavailable()),
  del("/api/v1/domain_blocks", user("write:blocks"), empty(), { note: "`{}` (the domain was not blocked)" }),
  get("/api/v1/domain_blocks/preview", user("write:blocks"), json({ following_count: 0, followers_count: 0 }), {
    note: "`{following_count: 0, followers_count: 0}`",
  }),
];
