/**
 * A notification's `group_key` (Mastodon 4.3+): favourites and boosts of one post share a key
 * per hour, follows one per day; everything else is its own group, `ungrouped-<id>`.
 */
export function notificationGroupKey(type: string, statusId: string | null, id: string, at: Date): string {
  const ms = at.getTime();
  if ((type === "favourite" || type === "reblog") && statusId !== null) {
    return `${type}-${statusId}-${Math.floor(ms / 3600_000)}`;
  }
  if (type === "follow") return `follow-${Math.floor(ms / 86400_000)}`;
  return `ungrouped-${id}`;
}
