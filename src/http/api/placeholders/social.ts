import { del, empty, get, json, none, page, post, unavailable, user } from "./dsl.ts";
import type { Placeholder } from "./types.ts";

/** 1.5 Follow requests, 1.7 Blocks, mutes and domain blocks (1.21 Reports is built). */
export const socialRows: Placeholder[] = [
  get("/api/v1/follow_requests", user("read:follows"), page(40)),
  post("/api/v1/follow_requests/:account_id/authorize", user("write:follows"), none(), {
    note: "404 (no follow request exists)",
  }),
  post("/api/v1/follow_requests/:account_id/reject", user("write:follows"), none(), {
    note: "404 (no follow request exists)",
  }),

  get("/api/v1/domain_blocks", user("read:blocks"), page(100)),
  post("/api/v1/domain_blocks", user("write:blocks"), unavailable()),
  del("/api/v1/domain_blocks", user("write:blocks"), empty(), { note: "`{}` (the domain was not blocked)" }),
  get("/api/v1/domain_blocks/preview", user("write:blocks"), json({ following_count: 0, followers_count: 0 }), {
    note: "`{following_count: 0, followers_count: 0}`",
  }),
];
