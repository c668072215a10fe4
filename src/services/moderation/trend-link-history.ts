import type { AppContext } from "../../context.ts";
import { idAtTime } from "../../lib/ids.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** One day of a link's history, as Mastodon's Trends::Link `history` (figures as strings). */
export interface HistoryDay {
  day: string;
  uses: string;
  accounts: string;
}

/**
 * The week of shares (newest day first) of each card: per UTC day, the public posts sharing it
 * and their distinct accounts, from the trends job's own count (one query for all cards).
 */
export async function linkHistories(ctx: AppContext, cardIds: readonly string[]): Promise<Map<string, HistoryDay[]>> {
  const out = new Map<string, HistoryDay[]>();
  if (cardIds.length === 0) return out;
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - 6 * DAY_MS);
  const uses = await ctx.repos.trends.linkUses(cardIds, since.toISOString(), idAtTime(since));
  for (const id of cardIds) {
    const days = uses.get(id);
    out.set(
      id,
      Array.from({ length: 7 }, (_, i) => {
        const day = new Date(today - i * DAY_MS);
        const u = days?.get(day.toISOString().slice(0, 10));
        return { day: String(day.getTime() / 1000), uses: String(u?.uses ?? 0), accounts: String(u?.accounts ?? 0) };
      }),
    );
  }
  return out;
}
