import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import { keptStatusesText } from "../statuses/rendered.ts";
import { filterVisible } from "../statuses/views.ts";
import { idRows, keptIdPage, windowKey } from "./id-pages.ts";

/** Mastodon reads at most this many tags per `any[]`, `all[]` and `none[]`. */
const TAGS_PER_MODE = 4;

/** A page of a timeline: `rows` are what the page window found (for the Link header), `visible` what the viewer sees. */
export interface TimelinePage {
  rows: { id: string }[];
  visible: Status[];
}

export interface PublicTimelineOptions {
  local: boolean;
  remote: boolean;
  onlyMedia: boolean;
}

/** `GET /api/v1/timelines/public`: public posts (no boosts, no replies to others), local or remote. */
export async function publicTimeline(
  ctx: AppContext,
  viewerId: string | undefined,
  opts: PublicTimelineOptions,
  window: IdWindow,
): Promise<TimelinePage> {
  const rows = await ctx.repos.statusPages.publicTimelinePage({ ...opts, reader: { accountId: viewerId } }, window);
  return { rows, visible: await filterVisible(ctx, rows, viewerId) };
}

const tagName = (v: string): string => normalizeHashtag(v.trim().replace(/^#/, ""));

/**
 * `GET /api/v1/timelines/tag/:hashtag`: public posts with the tag or one of `any`, with every tag
 * of `all` and none of `none`. An unknown tag (or an unknown one in `all`) gives an empty page.
 */
export async function tagTimeline(
  ctx: AppContext,
  viewerId: string | undefined,
  tag: string,
  tags: { any: string[]; all: string[]; none: string[] },
  opts: PublicTimelineOptions,
  window: IdWindow,
): Promise<TimelinePage> {
  const rows = await tagTimelineRows(ctx, viewerId, tag, tags, opts, window);
  return { rows, visible: await filterVisible(ctx, rows, viewerId) };
}

async function tagTimelineRows(
  ctx: AppContext,
  viewerId: string | undefined,
  tag: string,
  tags: { any: string[]; all: string[]; none: string[] },
  opts: PublicTimelineOptions,
  window: IdWindow,
): Promise<Status[]> {
  const any = [tagName(tag), ...tags.any.slice(0, TAGS_PER_MODE).map(tagName)];
  const all = tags.all.slice(0, TAGS_PER_MODE).map(tagName);
  const none = tags.none.slice(0, TAGS_PER_MODE).map(tagName);
  const ids = await ctx.repos.statusPages.tagIdsByName([...any, ...all, ...none]);
  const main = ids.get(any[0]);
  if (main === undefined || all.some((n) => !ids.has(n))) return [];
  const pick = (names: string[]) => [...new Set(names.flatMap((n) => ids.get(n) ?? []))];
  return ctx.repos.statusPages.publicTimelinePage(
    {
      ...opts,
      tags: { anyTagIds: pick(any), allTagIds: pick(all), noneTagIds: pick(none) },
      reader: { accountId: viewerId },
    },
    window,
  );
}

/**
 * How long a page of the public or hashtag timeline read for a signed-in reader is kept at most:
 * its query leaves out the accounts the reader mutes, until each mute's end.
 */
const MUTES_MAX_AGE_MS = 1000;

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);
const optionsKey = (o: PublicTimelineOptions) => `${o.local ? "l" : ""}${o.remote ? "r" : ""}${o.onlyMedia ? "m" : ""}`;

/** A page of the public (or hashtag) timeline's ids, kept while nothing it is read from changed. */
function publicIds(
  ctx: AppContext,
  viewerId: string | undefined,
  key: string,
  window: IdWindow,
  read: () => Promise<Status[]>,
): Promise<string[]> {
  return keptIdPage(
    ctx,
    ctx.database.renderChangeStamp(),
    `${key} ${viewerId ?? ""} ${windowKey(window)}`,
    async () => ids(await read()),
    viewerId === undefined ? undefined : MUTES_MAX_AGE_MS,
  );
}

/**
 * `GET /api/v1/timelines/public` as JSON: the same as `publicTimeline` rendered by `statusesText`
 * (filter context `public`), from the kept renders (statuses/rendered.ts). `rows` are the page as read.
 */
export async function publicTimelineText(
  ctx: AppContext,
  viewerId: string | undefined,
  opts: PublicTimelineOptions,
  window: IdWindow,
): Promise<{ rows: readonly { id: string }[]; body: Buffer }> {
  const key = `public ${optionsKey(opts)}`;
  const page = await publicIds(ctx, viewerId, key, window, () =>
    ctx.repos.statusPages.publicTimelinePage({ ...opts, reader: { accountId: viewerId } }, window),
  );
  return textOf(ctx, page, viewerId, `${key} ${windowKey(window)}`);
}

/** `GET /api/v1/timelines/tag/:hashtag` as JSON, as `publicTimelineText` (see `tagTimeline`). */
export async function tagTimelineText(
  ctx: AppContext,
  viewerId: string | undefined,
  tag: string,
  tags: { any: string[]; all: string[]; none: string[] },
  opts: PublicTimelineOptions,
  window: IdWindow,
): Promise<{ rows: readonly { id: string }[]; body: Buffer }> {
  const key = `tag ${optionsKey(opts)} ${JSON.stringify([tag, tags.any, tags.all, tags.none])}`;
  const page = await publicIds(ctx, viewerId, key, window, () =>
    tagTimelineRows(ctx, viewerId, tag, tags, opts, window),
  );
  return textOf(ctx, page, viewerId, `${key} ${windowKey(window)}`);
}

async function textOf(ctx: AppContext, page: string[], viewerId: string | undefined, pageKey: string) {
  return {
    rows: idRows(page),
    body: await keptStatusesText(ctx, page, viewerId, "public", { pageKey }),
  };
}

/**
 * A page of the viewer's home feed: its status ids, asked again only when a feed (or a status or
 * account whose deletion takes feed entries with it) may have changed since (the database's feed
 * change stamp, which on PostgreSQL follows the other processes' change notices; without a
 * stamp, always asked).
 */
function homeFeedIds(ctx: AppContext, viewerId: string, window: IdWindow): Promise<string[]> {
  return keptIdPage(ctx, ctx.database.feedChangeStamp(), `home ${viewerId} ${windowKey(window)}`, () =>
    ctx.repos.feeds.page(viewerId, window),
  );
}

/**
 * `GET /api/v1/timelines/home`: the viewer's materialised feed as JSON, each entry checked again
 * against the visibility rules (follows and deletions change after fan-out), rendered from parts
 * kept in memory (statuses/rendered.ts). `rows` are the feed entries the page window found.
 */
export async function homeTimelineText(
  ctx: AppContext,
  viewerId: string,
  window: IdWindow,
): Promise<{ rows: readonly { id: string }[]; body: Buffer }> {
  const ids = await homeFeedIds(ctx, viewerId, window);
  return { rows: idRows(ids), body: await keptStatusesText(ctx, ids, viewerId, "home") };
}
