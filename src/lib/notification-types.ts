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
  "severed_relationships",
] as const;

/**
 * The types a Web Push subscription has an alert for (Mastodon's `alerts`): every type but
 * `severed_relationships`, which Mastodon does not push.
 */
export const PUSH_ALERT_TYPES = NOTIFICATION_TYPES.filter(
  (t): t is Exclude<KnownNotificationType, "severed_relationships"> => t !== "severed_relationships",
);

export type KnownNotificationType = (typeof NOTIFICATION_TYPES)[number];

export const isNotificationType = (t: unknown): t is KnownNotificationType =>
  typeof t === "string" && (NOTIFICATION_TYPES as readonly string[]).includes(t);
