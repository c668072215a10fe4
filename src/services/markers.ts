import type { AppContext } from "../context.ts";
import type { Marker } from "../db/repositories/markers.ts";

export const MARKER_TIMELINES = ["home", "notifications"] as const;

/** Mastodon's Marker entities keyed by timeline. */
export function markersJson(markers: readonly Marker[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of markers) {
    out[m.timeline] = { last_read_id: m.lastReadId, version: m.version, updated_at: m.updatedAt };
  }
  return out;
}

/** The account's reading positions in these timelines (those it has). */
export function getMarkers(ctx: AppContext, accountId: string, timelines: readonly string[]): Promise<Marker[]> {
  return ctx.repos.markers.list(accountId, timelines);
}

/**
 * Saves reading positions (`POST /api/v1/markers`). Each marker moves only if nobody moved it
 * since it was read (its version); otherwise the answer is `conflict`, which Mastodon gives as a 409.
 * Saving the same position again changes nothing, version included, as Rails does.
 */
export async function saveMarkers(
  ctx: AppContext,
  accountId: string,
  positions: ReadonlyMap<string, string>,
): Promise<Marker[] | "conflict"> {
  const timelines = [...positions.keys()];
  const existing = new Map((await ctx.repos.markers.list(accountId, timelines)).map((m) => [m.timeline, m]));
  const at = new Date().toISOString();
  for (const [timeline, lastReadId] of positions) {
    const current = existing.get(timeline);
    let saved: boolean;
    if (current === undefined) {
      saved = await ctx.repos.markers.insert({
        id: ctx.ids.next(),
        account_id: accountId,
        timeline,
        last_read_id: lastReadId,
        at,
      });
    } else if (current.lastReadId === lastReadId) {
      saved = true;
    } else {
      saved = await ctx.repos.markers.update(accountId, timeline, lastReadId, current.version, at);
    }
    if (!saved) return "conflict";
  }
  return ctx.repos.markers.list(accountId, timelines);
}
