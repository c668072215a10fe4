/**
 * The scoring maths of trends, free of I/O (Mastodon's Trends::Tags, ::Links and ::Statuses in
 * spirit): an item scores by how far its recent use rises above its own usual level, and recent
 * use is weighed down with age, so a burst rises at once and fades over the following hours.
 */

const HOUR_MS = 3_600_000;

export interface TrendOptions {
  /** Half-life of a use's weight (hashtags and links) or of a post's score (ms). */
  halfLifeMs: number;
  /** Fewest distinct accounts (hashtags, links) or interactions (posts) in the window to score at all. */
  threshold: number;
  /** Scores below this are dropped. */
  minScore: number;
  /** How many candidates are kept. */
  maxItems: number;
}

export const TAG_OPTIONS: TrendOptions = { halfLifeMs: 6 * HOUR_MS, threshold: 2, minScore: 0.1, maxItems: 500 };
export const LINK_OPTIONS: TrendOptions = { halfLifeMs: 8 * HOUR_MS, threshold: 2, minScore: 0.1, maxItems: 500 };
export const STATUS_OPTIONS: TrendOptions = { halfLifeMs: 2 * HOUR_MS, threshold: 2, minScore: 0.1, maxItems: 500 };

/** The weight left after `ageMs` with the given half-life (1 now, 0.5 one half-life later). */
export function decay(ageMs: number, halfLifeMs: number): number {
  return 0.5 ** (Math.max(0, ageMs) / halfLifeMs);
}

/**
 * How unusual `observed` is against `expected` (Mastodon's (observed - expected)² / expected):
 * zero when below the usual level; `expected` counts as at least 1.
 */
export function surprise(observed: number, expected: number): number {
  const e = Math.max(1, expected);
  return observed <= e ? 0 : (observed - e) ** 2 / e;
}

/** A use of an item by one account: its server and how long ago it was last made. */
export interface AccountUse {
  server: string;
  ageMs: number;
}

/**
 * The score of a hashtag or link from its distinct accounts of the last 24 hours (each weighed by
 * the age of its latest use), against the mean of its distinct accounts per day over the
 * previous days (`earlierDays`, one count per day, missing days as 0): nothing under the
 * threshold of accounts; uses from several servers count more (1 + ½·log₂ servers).
 */
export function usageScore(recent: readonly AccountUse[], earlierDays: readonly number[], opts: TrendOptions): number {
  if (recent.length < opts.threshold) return 0;
  let observed = 0;
  const servers = new Set<string>();
  for (const u of recent) {
    observed += decay(u.ageMs, opts.halfLifeMs);
    servers.add(u.server);
  }
  const expected = earlierDays.length === 0 ? 0 : earlierDays.reduce((a, b) => a + b, 0) / earlierDays.length;
  return surprise(observed, expected) * (1 + 0.5 * Math.log2(servers.size));
}

/**
 * The score of a post from its favourites and boosts by distinct accounts (expected: 1), decayed
 * by the post's age (Mastodon's Trends::Statuses).
 */
export function statusScore(interactions: number, ageMs: number, opts: TrendOptions): number {
  if (interactions < opts.threshold) return 0;
  return surprise(interactions, 1) * decay(ageMs, opts.halfLifeMs);
}

/** The best `maxItems` of scored items at or above `minScore`, best first, ranked from 1. */
export function rankItems<T extends { score: number }>(
  items: readonly T[],
  opts: TrendOptions,
): (T & { rank: number })[] {
  return items
    .filter((i) => Number.isFinite(i.score) && i.score >= opts.minScore)
    .sort((a, b) => b.score - a.score)
    .slice(0, opts.maxItems)
    .map((i, n) => ({ ...i, rank: n + 1 }));
}
