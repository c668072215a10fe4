import type { Context } from "hono";
import { ApiError, notFound } from "../../../lib/errors.ts";
import { isId } from "../../../lib/ids.ts";
import { readParams } from "../../params.ts";
import type { HonoEnv } from "../../types.ts";
import { del, empty, get, json, page, post, unavailable, user } from "./dsl.ts";
import { UNAVAILABLE } from "./entities.ts";
import type { Placeholder } from "./types.ts";

/** A report names an account that must exist (404 otherwise, as Mastodon); filing it cannot work yet. */
async function fileReport(c: Context<HonoEnv>): Promise<never> {
  const id = (await readParams(c)).account_id;
  if (!isId(id) || !(await c.env.ctx.repos.accounts.getById(id))) throw notFound();
  throw new ApiError(422, UNAVAILABLE);
}

/** 1.7 Domain blocks, 1.21 Reports (follow requests, blocks and mutes are built elsewhere). */
export const socialRows: Placeholder[] = [
  get("/api/v1/domain_blocks", user("read:blocks"), page(100)),
  post("/api/v1/domain_blocks", user("write:blocks"), unavailable()),
  del("/api/v1/domain_blocks", user("write:blocks"), empty(), { note: "`{}` (the domain was not blocked)" }),
  get("/api/v1/domain_blocks/preview", user("write:blocks"), json({ following_count: 0, followers_count: 0 }), {
    note: "`{following_count: 0, followers_count: 0}`",
  }),

  post("/api/v1/reports", user("write:reports"), json(fileReport), {
    note: "404 for an unknown `account_id`, else 422 not available yet",
  }),
];
