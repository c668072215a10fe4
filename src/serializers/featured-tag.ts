/** What a FeaturedTag shows: the row, its tag, the owner's username and the tag's use in their posts. */
export interface FeaturedTagView {
  id: string;
  name: string;
  displayName: string;
  username: string;
  statusesCount: number;
  lastStatusAt: string | null;
}

/** Mastodon's FeaturedTag: the count as a string, the last use as a date (`YYYY-MM-DD`). */
export function serializeFeaturedTag(baseUrl: string, v: FeaturedTagView): Record<string, unknown> {
  return {
    id: v.id,
    name: v.displayName,
    url: `${baseUrl}/@${v.username}/tagged/${encodeURIComponent(v.name)}`,
    statuses_count: String(v.statusesCount),
    last_status_at: v.lastStatusAt === null ? null : v.lastStatusAt.slice(0, 10),
  };
}
