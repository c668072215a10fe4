import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { ItemAccount, RecentUse, StatusEngagement } from "../../db/repositories/trends.ts";
import { idAtTime } from "../../lib/ids.ts";
import { allowedLinks, linkDomain } from "./allowed.ts";
import { dropTrendsCaches } from "./cache.ts";
import { primaryLanguage } from "./languages.ts";
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

const logger = getLogger(["gannet", "trends"]);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Earlier days an item's usual level is taken from. */
const EARLIER_DAYS = 6;
/** Posts older than this do not trend (Mastodon: two days). */
const STATUS_MAX_AGE_MS = 2 * DAY_MS;

export interface TrendsRefreshResult {
  tags: number;
  statuses: number;
  links: number;
}

/** The time of a Snowflake id (ms). */
const idMs = (id: string): number => Number(BigInt(id) >> 16n);

/**
 * Each query reads one slice of time at most: on SQLite a statement holds the one connection
 * (and the event loop) while it runs, so requests wait for one slice, never for a whole day.
 */
const SLICE_MS = 6 * HOUR_MS;
/** Items whose earlier days one statement reads (popular hashtags have many uses a day). */
const DAILY_BATCH = 50;

/**
 * Lets the event loop serve requests between two statements: on SQLite the statements answer
 * through promises alone, so a run of them would otherwise keep requests waiting to the end.
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The [fromId, toId) id windows of `SLICE_MS` covering [fromMs, toMs), newest first. */
function slices(fromMs: number, toMs: number): [string, string][] {
  const out: [string, string][] = [];
  for (let end = toMs; end > fromMs; end -= SLICE_MS) {
    out.push([idAtTime(new Date(Math.max(fromMs, end - SLICE_MS))), idAtTime(new Date(end))]);
  }
  return out;
}

/** One account's use of an item, merged over slices: its latest use wins. */
function mergeUses(into: Map<string, Map<string, { domain: string | null; lastId: string }>>, uses: RecentUse[]) {
  for (const u of uses) {
    const accounts = into.get(u.itemId) ?? new Map<string, { domain: string | null; lastId: string }>();
    const seen = accounts.get(u.accountId);
    if (seen === undefined || BigInt(seen.lastId) < BigInt(u.lastId)) {
      accounts.set(u.accountId, { domain: u.domain, lastId: u.lastId });
    }
    into.set(u.itemId, accounts);
  }
}

/**
 * Scores of the items (tags or links) used in the last 24 hours: their distinct accounts, each
 * weighed by the age of its latest use, against their distinct accounts on each of the earlier
 * days (read only for the items that reach the threshold).
 */
async function scoreUsage(
  recent: (fromId: string, toId: string) => Promise<RecentUse[]>,
  daily: (ids: string[], fromId: string, toId: string) => Promise<ItemAccount[]>,
  nowMs: number,
  opts: TrendOptions,
): Promise<{ id: string; score: number }[]> {
  const byItem = new Map<string, Map<string, { domain: string | null; lastId: string }>>();
  for (const [from, to] of slices(nowMs - DAY_MS, nowMs + 60_000)) {
    mergeUses(byItem, await recent(from, to));
    await breathe();
  }
  const candidates = [...byItem.entries()].filter(([, a]) => a.size >= opts.threshold).map(([id]) => id);
  const days = new Map<string, number[]>(candidates.map((id) => [id, []]));
  if (candidates.length > 0) {
    for (let day = 1; day <= EARLIER_DAYS; day++) {
      const end = nowMs - day * DAY_MS;
      // Distinct accounts of the day, over its slices.
      const accounts = new Map<string, Set<string>>();
      for (const [from, to] of slices(end - DAY_MS, end)) {
        for (let i = 0; i < candidates.length; i += DAILY_BATCH) {
          for (const u of await daily(candidates.slice(i, i + DAILY_BATCH), from, to)) {
            const set = accounts.get(u.itemId) ?? new Set<string>();
            set.add(u.accountId);
            accounts.set(u.itemId, set);
          }
          await breathe();
        }
      }
      for (const id of candidates) days.get(id)?.push(accounts.get(id)?.size ?? 0);
    }
  }
  return candidates.map((id) => {
    const uses: AccountUse[] = [...(byItem.get(id)?.values() ?? [])].map((u) => ({
      server: u.domain ?? "",
      ageMs: nowMs - idMs(u.lastId),
    }));
    return { id, score: usageScore(uses, days.get(id) ?? [], opts) };
  });
}

/**
 * Scores trending hashtags, posts and links from recent engagement and replaces the lists with
 * the best candidates of each (a few aggregate queries bounded by id windows, writes in
 * batches, each list with its `allowed` from the review switches in one transaction), then
 * drops the cached answers everywhere. With
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
  // Hashtags
  const tagScores = await scoreUsage(
    (from, to) => repo.recentTagUses(from, to),
    (ids, from, to) => repo.tagAccounts(ids, from, to),
    nowMs,
    TAG_OPTIONS,
  );
  const tags = rankItems(tagScores, TAG_OPTIONS);
  const review = ctx.config.trends.review;
  await repo.replaceTags(
    tags.map((t) => ({ tag_id: t.id, score: t.score, rank: t.rank })),
    nowIso,
    review.tags,
  );

  // Posts
  const engagement: StatusEngagement[] = [];
  for (const [from, to] of slices(nowMs - STATUS_MAX_AGE_MS, nowMs + 60_000)) {
    engagement.push(...(await repo.statusEngagement(from, to, STATUS_OPTIONS.threshold)));
    await breathe();
  }
  const statuses = rankItems(
    engagement.map((s) => ({ ...s, score: statusScore(s.interactions, nowMs - idMs(s.statusId), STATUS_OPTIONS) })),
    STATUS_OPTIONS,
  );
  await breathe();
  await repo.replaceStatuses(
    statuses.map((s) => ({
      status_id: s.statusId,
      account_id: s.accountId,
      // Stored as the primary subtag, which is what readers' languages are matched by.
      language: s.language === null ? null : (primaryLanguage(s.language) ?? null),
      score: s.score,
      rank: s.rank,
    })),
    nowIso,
    review.statuses,
  );

  // Links
  const linkScores = await scoreUsage(
    (from, to) => repo.recentLinkUses(from, to),
    (ids, from, to) => repo.linkAccounts(ids, from, to),
    nowMs,
    LINK_OPTIONS,
  );
  const links = rankItems(linkScores, LINK_OPTIONS);
  const cards = await repo.cardsInfo(links.map((l) => l.id));
  const domains = [...cards.values()].map((c) => linkDomain(c.url)).filter((d) => d !== undefined);
  await breathe();
  await repo.ensureProviders(domains, () => ctx.ids.next(), nowIso);
  const allowed = await allowedLinks(
    ctx,
    [...cards.entries()].map(([cardId, c]) => ({ cardId, url: c.url, trendable: c.trendable })),
  );
  await repo.replaceLinks(
    links.map((l) => ({
      preview_card_id: l.id,
      language: primaryLanguage(cards.get(l.id)?.language ?? "") ?? null,
      score: l.score,
      rank: l.rank,
      allowed: allowed.has(l.id),
    })),
    nowIso,
  );

  await dropTrendsCaches(ctx);
  logger.debug("Trends scored: {tags} hashtags, {statuses} posts, {links} links", {
    tags: tags.length,
    statuses: statuses.length,
    links: links.length,
  });
  return { tags: tags.length, statuses: statuses.length, links: links.length };
}
