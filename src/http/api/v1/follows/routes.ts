import type { Hono } from "hono";
import { z } from "zod";
import { unprocessable } from "../../../../lib/errors.ts";
import { isLanguageCode } from "../../../../lib/text/languages.ts";
import * as follows from "../../../../services/follows/follow.ts";
import { familiarFollowersJson, followAccountsPage, followRequestsPage } from "../../../../services/follows/lists.ts";
import { currentAccount, optionalToken, requireUser, viewerAccount } from "../../../middleware/auth.ts";
import { throttle } from "../../../middleware/rate-limit.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, validate } from "../../../validate.ts";

/** Optional parameter: clients send "" or null for "not given". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

export const followSchema = z.object({
  reblogs: optional(boolish),
  notify: optional(boolish),
});

/**
 * The options of a follow request: `reblogs` and `notify` when given; `languages[]` when given
 * (even empty) replaces the follow's languages, blanks dropped, none meaning all. An unknown
 * language is Mastodon's `Validation failed: Languages is invalid`.
 */
function followOptions(params: Record<string, unknown>): follows.FollowOptions {
  const p = validate(followSchema, { reblogs: params.reblogs, notify: params.notify });
  let languages: string[] | null | undefined;
  if (params.languages !== undefined) {
    const given = (asArray(params.languages) ?? []).filter((l) => l !== "" && l !== null);
    if (!given.every((l) => typeof l === "string" && isLanguageCode(l))) {
      throw unprocessable("Validation failed: Languages is invalid");
    }
    languages = given.length === 0 ? null : [...new Set(given as string[])];
  }
  return { showReblogs: p.reblogs, notify: p.notify, languages };
}

/** Mastodon's `follows` action family: 400 follows and follow requests per day per user. */
export const throttleFollows = () => throttle("follows", 400, 24 * 60 * 60 * 1000, "user");

/** Follows, follow requests, followers and following lists, familiar followers. */
export function followRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/accounts/:id{[0-9]+}/follow", requireUser("write:follows"), throttleFollows(), async (c) => {
    const opts = followOptions(await readParams(c));
    return c.json(await follows.follow(c.env.ctx, currentAccount(c), c.req.param("id"), opts));
  });
  app.post("/api/v1/accounts/:id{[0-9]+}/unfollow", requireUser("write:follows"), async (c) =>
    c.json(await follows.unfollow(c.env.ctx, currentAccount(c), c.req.param("id"))),
  );
  app.post("/api/v1/accounts/:id{[0-9]+}/remove_from_followers", requireUser("write:follows"), async (c) =>
    c.json(await follows.removeFromFollowers(c.env.ctx, currentAccount(c), c.req.param("id"))),
  );

  for (const side of ["followers", "following"] as const) {
    app.get(`/api/v1/accounts/:id{[0-9]+}/${side}`, optionalToken("read", "read:accounts"), async (c) => {
      const page = pageParams(c, 40, 80);
      const r = await followAccountsPage(c.env.ctx, side, c.req.param("id"), viewerAccount(c), page);
      setLinkHeader(c, page, r.rows.length, r.rows[0]?.id, r.rows.at(-1)?.id);
      return c.json(r.json);
    });
  }

  app.get("/api/v1/follow_requests", requireUser("read:follows"), async (c) => {
    const page = pageParams(c, 40, 80);
    const r = await followRequestsPage(c.env.ctx, currentAccount(c), page);
    setLinkHeader(c, page, r.rows.length, r.rows[0]?.id, r.rows.at(-1)?.id);
    return c.json(r.json);
  });
  app.post("/api/v1/follow_requests/:id{[0-9]+}/authorize", requireUser("write:follows"), async (c) =>
    c.json(await follows.authorizeFollowRequest(c.env.ctx, currentAccount(c), c.req.param("id"))),
  );
  app.post("/api/v1/follow_requests/:id{[0-9]+}/reject", requireUser("write:follows"), async (c) =>
    c.json(await follows.rejectFollowRequest(c.env.ctx, currentAccount(c), c.req.param("id"))),
  );

  app.get("/api/v1/accounts/familiar_followers", requireUser("read:follows"), async (c) => {
    const params = await readParams(c);
    const ids = (asArray(params.id) ?? []).filter((x): x is string => typeof x === "string");
    return c.json(await familiarFollowersJson(c.env.ctx, currentAccount(c).id, ids));
  });
}
