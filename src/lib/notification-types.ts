/**
 * Every notification type this server creates: the one list that Web Push alerts (and anything
 * else keyed by type) derive from, so a type added here joins them. Creating a notification of a
 * type missing here does not type-check (`notificationCreated`).
 */
export const NOTIFICATION_TYPES = [
  "mention",
  "status",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "poll",
  "update",
  "admin.sign_up",
  "admin.report",
  "moderation_warning",
  "severed_relationships",
  "quote",
  "quoted_update",
] as const;

export type KnownNotificationType = (typeof NOTIFICATION_TYPES)[number];

export const isNotificationType = (t: unknown): t is KnownNotificationType =>
  typeof t === "string" && (NOTIFICATION_TYPES as readonly string[]).includes(t);

/**
 * The types a Web Push subscription has an alert for (Mastodon's `alerts`): all but
 * `moderation_warning` and `severed_relationships`, which Mastodon's alerts do not list.
 */
export const PUSH_ALERT_TYPES: readonly KnownNotificationType[] = NOTIFICATION_TYPES.filter(
  (t) => t !== "moderation_warning" && t !== "severed_relationships",
);
