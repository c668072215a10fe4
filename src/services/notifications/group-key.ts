import type { AppContext } from "../../context.ts";

/** The types Mastodon gives a shared `group_key` (and groups by default in v2). */
export const GROUPABLE_TYPES: readonly string[] = ["favourite", "reblog", "follow", "admin.sign_up"];

/** A group keeps taking notifications for up to this many hours after it began (Mastodon). */
export const MAXIMUM_GROUP_SPAN_HOURS = 12;

/** What a group's key starts with: the type, and the post for favourites and boosts. */
function groupPrefix(type: string, statusId: string | null): string | undefined {
  if (type === "favourite" || type === "reblog") return statusId === null ? undefined : `${type}-${statusId}`;
  if (type === "follow" || type === "admin.sign_up") return type;
  return undefined;
}

export const hourBucket = (at: Date): number => Math.floor(at.getTime() / 3600_000);

/**
 * A notification's `group_key` (Mastodon 4.3+): `<type>-<post>-<hour>` for favourites and boosts,
 * `follow-<hour>` and `admin.sign_up-<hour>`, where the hour is that of the group's first
 * notification (`previousBucket`) while the group is under `MAXIMUM_GROUP_SPAN_HOURS` old;
 * every other type is its own group, `ungrouped-<id>`.
 */
export function notificationGroupKey(
  type: string,
  statusId: string | null,
  id: string,
  at: Date,
  previousBucket?: number,
): string {
  const prefix = groupPrefix(type, statusId);
  if (prefix === undefined) return `ungrouped-${id}`;
  const current = hourBucket(at);
  const bucket =
    previousBucket !== undefined && previousBucket <= current && current < previousBucket + MAXIMUM_GROUP_SPAN_HOURS
      ? previousBucket
      : current;
  return `${prefix}-${bucket}`;
}

/**
 * The `group_key` of a new notification for `recipientId`. Mastodon remembers each group's hour
 * in Redis for 12 hours after its latest notification and reuses it while the group is under 12
 * hours old; the same facts are read here from the recipient's latest notification of that
 * group made in the last 12 hours (keys can only be one of the last 12 hours').
 */
export async function groupKeyFor(
  ctx: AppContext,
  recipientId: string,
  type: string,
  statusId: string | null,
  id: string,
  at: Date,
): Promise<string> {
  const prefix = groupPrefix(type, statusId);
  if (prefix === undefined) return `ungrouped-${id}`;
  const current = hourBucket(at);
  const candidates = Array.from({ length: MAXIMUM_GROUP_SPAN_HOURS }, (_, i) => `${prefix}-${current - i}`);
  const since = new Date(at.getTime() - MAXIMUM_GROUP_SPAN_HOURS * 3600_000).toISOString();
  const latest = await ctx.repos.notifications.latestGroupKeyAmong(recipientId, candidates, since);
  const previous = latest === undefined ? undefined : Number(latest.slice(prefix.length + 1));
  return notificationGroupKey(type, statusId, id, at, previous);
}
