import type { Context, Hono } from "hono";
import { z } from "zod";
import { ApiError, ERR } from "../../../../lib/errors.ts";
import { liveFeedAccessFor, liveFeedScope } from "../../../../services/feeds/live-feed-access.ts";
import {
  homeTimelineText,
  type PublicTimelineOptions,
  publicTimelineText,
  tagTimelineText,
} from "../../../../services/feeds/timelines.ts";
import { jsonText } from "../../../json-text.ts";
import { currentAccount, optionalToken, requireUser, viewerAccount } from "../../../middleware/auth.ts";
import { type PageParams, pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, validate } from "../../../validate.ts";

const optionalBool = z.preprocess((v) => (v === "" || v === null ? undefined : v), boolish.optional());
export const publicSchema = z.object({ local: optionalBool, remote: optionalBool, only_media: optionalBool });

function publicOptions(params: unknown): PublicTimelineOptions {
  const p = validate(publicSchema, params);
  // Both local and remote is everything, as in Mastodon's PublicFeed (local_only? is local && !remote).
  const local = p.local ?? false;
  const remote = p.remote ?? false;
  return { local: local && !remote, remote: remote && !local, onlyMedia: p.only_media ?? false };
}

const names = (v: unknown): string[] =>
  (asArray(v) ?? []).filter((x): x is string => typeof x === "string" && x.trim() !== "");

function answer(c: Context<HonoEnv>, page: PageParams, result: { rows: readonly { id: string }[]; body: Buffer }) {
  setLinkHeader(c, page, result.rows.length, result.rows[0]?.id, result.rows.at(-1)?.id);
  return jsonText(c, result.body);
}

/** The home, public and hashtag timelines. */
export function timelineRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/timelines/home", requireUser("read", "read:statuses"), async (c) => {
    const page = pageParams(c, 20, 40);
    const viewerId = currentAccount(c).id;
    const { rows, body } = await homeTimelineText(c.env.ctx, viewerId, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return jsonText(c, body);
  });

  app.get("/api/v1/timelines/public", optionalToken("read", "read:statuses"), async (c) => {
    const page = pageParams(c, 20, 40);
    const opts = publicOptions(await readParams(c));
    const viewerId = viewerAccount(c)?.id;
    // The operator's live feed access: a part open to users only asks for one (Mastodon's
    // require_user!), a part closed to this reader is left out (nothing when both are).
    const access = await liveFeedAccessFor(c.env.ctx, c.get("auth")?.user?.roleId);
    const scope = liveFeedScope(access, opts, viewerId !== undefined);
    if (scope === "signIn") throw new ApiError(422, ERR.userRequired);
    if (scope === "none") return answer(c, page, { rows: [], body: Buffer.from("[]") });
    return answer(c, page, await publicTimelineText(c.env.ctx, viewerId, { ...opts, ...scope }, page));
  });

  app.get("/api/v1/timelines/tag/:hashtag", optionalToken("read", "read:statuses"), async (c) => {
    const page = pageParams(c, 20, 40);
    const params = await readParams(c);
    const opts = publicOptions(params);
    const viewerId = viewerAccount(c)?.id;
    const tags = { any: names(params.any), all: names(params.all), none: names(params.none) };
    return answer(c, page, await tagTimelineText(c.env.ctx, viewerId, c.req.param("hashtag"), tags, opts, page));
  });
}
