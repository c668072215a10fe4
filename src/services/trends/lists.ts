import type { AppContext } from "../../context.ts";
import { notFound } from "../../lib/errors.ts";
import { idAtTime } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { serializePreviewCard } from "../../serializers/preview-card.ts";
import type { TimelinePage } from "../feeds/timelines.ts";
import { keptStatusesText } from "../statuses/rendered.ts";
import { history, startOfToday, tagsJson } from "../statuses/tags.ts";
import { filterVisible } from "../statuses/views.ts";
import { statusesText } from "../statuses/views-text.ts";

const DAY_MS = 86_400_000;

export interface OffsetPage {
  limit: number;
  offset: number;
}

/** Mastodon's `GET /api/v1/trends/tags`: allowed trending hashtags by rank, each with its history. */
export async function trendingTagsJson(
  ctx: AppContext,
  viewerId: string | undefined,
  page: OffsetPage,
): Promise<Record<string, unknown>[]> {
  if (!ctx.config.trends.enabled) return [];
  const tags = await ctx.repos.trends.allowedTags(page.limit, page.offset);
  return tagsJson(ctx, tags, viewerId);
}

/**
 * Mastodon's `GET /api/v1/trends/statuses`: allowed trending posts in the reader's languages (or
 * without a language) by rank, rendered for the reader as the other status lists (`public`
 * filters; a signed-in reader's blocks and mutes leave posts out). `count`: rows the page found.
 */
export async function trendingStatusesText(
  ctx: AppContext,
  viewerId: string | undefined,
  languages: readonly string[],
  page: OffsetPage,
): Promise<{ count: number; body: string | Buffer }> {
  if (!ctx.config.trends.enabled) return { count: 0, body: "[]" };
  const ids = await ctx.repos.trends.allowedStatusIds(languages, viewerId, page.limit, page.offset);
  if (ids.length === 0) return { count: 0, body: "[]" };
  // A reader's page is made from the rendering kept between requests, as the home timeline's is.
  if (viewerId !== undefined) return { count: ids.length, body: await keptStatusesText(ctx, ids, viewerId, "public") };
  const byId = new Map((await ctx.repos.statuses.getByIds(ids)).map((s) => [s.id, s]));
  const ranked = ids.map((id) => byId.get(id)).filter((s) => s !== undefined);
  const visible = await filterVisible(ctx, ranked, viewerId);
  return { count: ids.length, body: await statusesText(ctx, visible, viewerId, { filterContext: "public" }) };
}

/**
 * Mastodon's Trends::Link entities of `cardIds` (in that order): the PreviewCard and its 7-day
 * history (posts sharing it and their distinct accounts per day, newest day first).
 */
export async function trendLinksJson(ctx: AppContext, cardIds: readonly string[]): Promise<Record<string, unknown>[]> {
  if (cardIds.length === 0) return [];
  const today = startOfToday();
  const since = new Date(today - 6 * DAY_MS);
  const [cards, uses] = await Promise.all([
    ctx.repos.previewCards.getByIds(cardIds),
    ctx.repos.trends.linkUses(cardIds, since.toISOString(), idAtTime(since)),
  ]);
  const blobUrl = (key: string) => ctx.blobs.url(key);
  const out: Record<string, unknown>[] = [];
  for (const id of cardIds) {
    const card = cards.get(id);
    if (card === undefined) continue;
    out.push({ ...serializePreviewCard(card, blobUrl), history: history(today, uses.get(id)) });
  }
  return out;
}

/** Mastodon's `GET /api/v1/trends/links`: allowed trending links in the reader's languages, by rank. */
export async function trendingLinksJson(
  ctx: AppContext,
  languages: readonly string[],
  page: OffsetPage,
): Promise<Record<string, unknown>[]> {
  if (!ctx.config.trends.enabled) return [];
  return trendLinksJson(ctx, await ctx.repos.trends.allowedLinkIds(languages, page.limit, page.offset));
}

/**
 * Mastodon 4.3's `GET /api/v1/timelines/link?url=`: the public posts sharing a link, only while
 * it is trending and allowed (404 otherwise, as for an unknown link).
 */
export async function linkTimeline(
  ctx: AppContext,
  viewerId: string | undefined,
  url: string | undefined,
  window: IdWindow,
): Promise<TimelinePage> {
  if (!ctx.config.trends.enabled || url === undefined || url === "" || url.length > 2048) throw notFound();
  const cardId = await ctx.repos.trends.allowedLinkByUrl(url);
  if (cardId === undefined) throw notFound();
  const rows = await ctx.repos.trends.linkTimelinePage(cardId, viewerId, window);
  return { rows, visible: await filterVisible(ctx, rows, viewerId) };
}
