import type { AppContext } from "../../context.ts";
import type { IdWindow } from "../../lib/pagination.ts";

/**
 * Pages of ids (of a timeline, an account's statuses, favourites or bookmarks) kept between
 * requests while the database's change stamp they depend on holds (src/db/database.ts
 * `renderChangeStamp` for pages read by visibility, blocks, mutes, follows, tags, media, pins,
 * favourites and bookmarks; `feedChangeStamp` for materialised feeds). Without a stamp (PostgreSQL,
 * or SQLite shared with another process it cannot see) the page is read every time. A page whose
 * query depends on the clock too (a mute's end) is kept for at most `maxAgeMs`.
 */
interface KeptIds<T> {
  stamp: number;
  until: number;
  value: T;
}

const kept = new WeakMap<AppContext, Map<string, KeptIds<unknown>>>();
const MAX_PAGES = 2_000;

/** The cache key part of a page window. */
export const windowKey = (w: IdWindow): string => `${w.maxId ?? ""} ${w.sinceId ?? ""} ${w.minId ?? ""} ${w.limit}`;

export async function keptIdPage<T>(
  ctx: AppContext,
  stamp: number | undefined,
  key: string,
  read: () => Promise<T>,
  maxAgeMs = Number.POSITIVE_INFINITY,
): Promise<T> {
  if (stamp === undefined) return read();
  let pages = kept.get(ctx);
  if (pages === undefined) {
    pages = new Map();
    kept.set(ctx, pages);
  }
  const now = Date.now();
  const known = pages.get(key);
  if (known !== undefined && known.stamp === stamp && now < known.until) return known.value as T;
  const value = await read();
  if (pages.size >= MAX_PAGES) pages.clear();
  pages.set(key, { stamp, until: now + maxAgeMs, value });
  return value;
}

const rowsOfIds = new WeakMap<readonly string[], readonly { id: string }[]>();

/**
 * A page's ids as the rows its Link header is drawn from, made once for a kept page (the same
 * array while it is kept) rather than for every request.
 */
export function idRows(ids: readonly string[]): readonly { id: string }[] {
  let rows = rowsOfIds.get(ids);
  if (rows === undefined) {
    rows = ids.map((id) => ({ id }));
    rowsOfIds.set(ids, rows);
  }
  return rows;
}
