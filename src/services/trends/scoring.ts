import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { DailyUse, RecentUse } from "../../db/repositories/trends.ts";
import { idAtTime } from "../../lib/ids.ts";
import { linkDomain, refreshAllowed } from "./allowed.ts";
import { dropTrendsCaches } from "./cache.ts";
import {
  type AccountUse,
  LINK_OPTIONS,
  rankItems,
  STATUS_OPTIONS,
  statusScore,
  TAG_OPTIONS,
  type TrendOptions,
  usageScore,
} from "./maths.ts";
import { latestUses, Pacer } from "./pacing.ts";

const logger = getLogger(["gannet", "trends"]);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Earlier days an item's usual level is taken from. */
const EARLIER_DAYS = 6;
/** Posts older than this do not trend (Mastodon: two days). */
const STATUS_MAX_AGE_MS = 2 * DAY_MS;
/** The recent uses and interactions are read in id windows of this span, with rests between (pacing.ts). */
const WINDOW_MS = 3 * HOUR_MS;
/** Candidates whose usual level is read in one statement. */
const EARLIER_BATCH = 8;

export interface TrendsRefreshResult {
  tags: number;
  statuses: number;
  links: number;
}

/** The time of a Snowflake id (ms). */
const idMs = (id: string): number => Number(BigInt(id) >> 16n);

/**
 * Scores of items used in the last 24 hours (tags or links): the recent uses grouped per item,
 * the items that reach the threshold, their usual level from the earlier days, then the score.
 */
async function scoreUsage(
  recent: readonly RecentUse[],
  earlier: (ids: string[]) => Promise<DailyUse[]>,
  nowMs: number,
  opts: TrendOptions,
): Promise<{ id: string; score: number }[]> {
  const byItem = new Map<string, AccountUse[]>();
  for (const u of recent) {
    const uses = byItem.get(u.itemId) ?? [];
    uses.push({ server: u.domain ?? "", ageMs: nowMs - idMs(u.lastId) });
    byItem.set(u.itemId, uses);
  }
  const candidates = [...byItem.entries()].filter(([, uses]) => uses.length >= opts.threshold).map(([id]) => id);
  const days = new Map<string, number[]>();
  for (const d of await earlier(candidates)) {
    if (d.day < 1 || d.day > EARLIER_DAYS) continue;
    const counts = days.get(d.itemId) ?? new Array<number>(EARLIER_DAYS).fill(0);
    counts[d.day - 1] = d.accounts;
    days.set(d.itemId, counts);
  }
  return candidates.map((id) => ({
    id,
    score: usageScore(byItem.get(id) ?? [], days.get(id) ?? new Array<number>(EARLIER_DAYS).fill(0), opts),
  }));
}

/**
 * Scores trending hashtags, posts and links from recent engagement and replaces the lists with
 * the best candidates of each (a few aggregate queries bounded by id windows, writes in
 * batches), then sets `allowed` from the review switches and drops the cached answers. With
 * TRENDS_ENABLED=false the lists are emptied instead. Run by the scheduler every five minutes.
 */
export async function refreshTrends(ctx: AppContext, now: Date = new Date()): Promise<TrendsRefreshResult> {
  const repo = ctx.repos.trends;
  if (!ctx.config.trends.enabled) {
    await repo.clearAll();
    await dropTrendsCaches(ctx);
    return { tags: 0, statuses: 0, links: 0 };
  }
  const nowMs = now.getTime();
  const nowIso = now.toISOString();
  const dayAgo = idAtTime(new Date(nowMs - DAY_MS));
  const weekAgo = idAtTime(new Date(nowMs - (EARLIER_DAYS + 1) * DAY_MS));

  const pace = new Pacer();

  // Hashtags
  const tagScores = await scoreUsage(
    latestUses(await pace.windows(nowMs - DAY_MS, nowMs, WINDOW_MS, (from, to) => repo.recentTagUses(from, to))),
    (ids) => pace.batches(ids, EARLIER_BATCH, (batch) => repo.dailyTagAccounts(batch, weekAgo, dayAgo, nowMs)),
    nowMs,
    TAG_OPTIONS,
  );
  const tags = rankItems(tagScores, TAG_OPTIONS);
  await repo.replaceTags(
    tags.map((t) => ({ tag_id: t.id, score: t.score, rank: t.rank })),
    nowIso,
  );
  await pace.rest();

  // Posts
  const engagement = await pace.windows(nowMs - STATUS_MAX_AGE_MS, nowMs, WINDOW_MS, (from, to) =>
    repo.statusEngagement(from, STATUS_OPTIONS.threshold, to),
  );
  const statuses = rankItems(
    engagement.map((s) => ({ ...s, score: statusScore(s.interactions, nowMs - idMs(s.statusId), STATUS_OPTIONS) })),
    STATUS_OPTIONS,
  );
  await repo.replaceStatuses(
    statuses.map((s) => ({
      status_id: s.statusId,
      account_id: s.accountId,
      language: s.language,
      score: s.score,
      rank: s.rank,
    })),
    nowIso,
  );
  await pace.rest();

  // Links
  const linkScores = await scoreUsage(
    latestUses(await pace.windows(nowMs - DAY_MS, nowMs, WINDOW_MS, (from, to) => repo.recentLinkUses(from, to))),
    (ids) => pace.batches(ids, EARLIER_BATCH, (batch) => repo.dailyLinkAccounts(batch, weekAgo, dayAgo, nowMs)),
    nowMs,
    LINK_OPTIONS,
  );
  const links = rankItems(linkScores, LINK_OPTIONS);
  const cards = await repo.cardsInfo(links.map((l) => l.id));
  const domains = [...cards.values()].map((c) => linkDomain(c.url)).filter((d) => d !== undefined);
  await repo.ensureProviders(domains, () => ctx.ids.next(), nowIso);
  await repo.replaceLinks(
    links.map((l) => ({
      preview_card_id: l.id,
      language: cards.get(l.id)?.language ?? null,
      score: l.score,
      rank: l.rank,
    })),
    nowIso,
  );
  await pace.rest();

  await refreshAllowed(ctx);
  logger.debug("Trends scored: {tags} hashtags, {statuses} posts, {links} links", {
    tags: tags.length,
    statuses: statuses.length,
    links: links.length,
  });
  return { tags: tags.length, statuses: statuses.length, links: links.length };
}
