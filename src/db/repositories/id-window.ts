import type { IdWindow } from "../../lib/pagination.ts";

/** Mastodon's id window (max_id/since_id/min_id) for repositories: order and conditions. */

/** Newest first, unless min_id pages forward from a cursor. */
export function idWindowOrder(window: IdWindow): "asc" | "desc" {
  return window.minId !== undefined && window.maxId === undefined ? "asc" : "desc";
}

/** Applies the window's conditions on `column`. */
export function applyWindow<Q extends { where: (...args: any[]) => any }>(q: Q, column: string, w: IdWindow): Q {
  let out = q;
  if (w.maxId !== undefined) out = out.where(column, "<", w.maxId);
  if (w.sinceId !== undefined) out = out.where(column, ">", w.sinceId);
  if (w.minId !== undefined) out = out.where(column, ">", w.minId);
  return out;
}

/** Newest first, whatever order the query used. */
export function sortDesc<T extends { id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : BigInt(a.id) > BigInt(b.id) ? -1 : 0));
}
