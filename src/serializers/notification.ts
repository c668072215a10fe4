/** What the Notification entity reads of a notification (its row has these and more). */
export interface NotificationView {
  id: string;
  type: string;
  groupKey: string;
  createdAt: string;
}

/**
 * Mastodon's Notification entity; `status` only for the types about a post, `report` for
 * `admin.report`, `moderation_warning` (an AccountWarning) for `moderation_warning`, `event` (a
 * RelationshipSeveranceEvent) for `severed_relationships`.
 */
export function serializeNotification(
  n: NotificationView,
  account: Record<string, unknown>,
  status: Record<string, unknown> | undefined,
  report?: Record<string, unknown>,
  moderationWarning?: Record<string, unknown>,
  event?: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: n.id,
    type: n.type,
    group_key: n.groupKey,
    created_at: n.createdAt,
    account,
  };
  if (status !== undefined) out.status = status;
  if (report !== undefined) out.report = report;
  if (moderationWarning !== undefined) out.moderation_warning = moderationWarning;
  if (event !== undefined) out.event = event;
  return out;
}

/** A NotificationGroup's facts, gathered by the grouped notifications service. */
export interface NotificationGroupView {
  groupKey: string;
  type: string;
  count: number;
  mostRecentId: string;
  /** Set when listing a page (with `latestAt`): the group's oldest notification in the page. */
  pageMinId?: string;
  latestAt?: string;
  sampleAccountIds: string[];
  statusId: string | null;
  /** The Report entity of an `admin.report` group. */
  report?: Record<string, unknown>;
  /** The AccountWarning entity of a `moderation_warning` group. */
  moderationWarning?: Record<string, unknown>;
  /** The RelationshipSeveranceEvent of a `severed_relationships` group. */
  event?: Record<string, unknown>;
}

/** Mastodon's NotificationGroup entity (4.3); the `page_*` fields only in a listed page. */
export function serializeNotificationGroup(g: NotificationGroupView): Record<string, unknown> {
  const out: Record<string, unknown> = {
    group_key: g.groupKey,
    notifications_count: g.count,
    type: g.type,
    most_recent_notification_id: g.mostRecentId,
  };
  if (g.pageMinId !== undefined) {
    out.page_min_id = g.pageMinId;
    out.page_max_id = g.mostRecentId;
    out.latest_page_notification_at = g.latestAt;
  }
  out.sample_account_ids = g.sampleAccountIds;
  if (g.statusId !== null) out.status_id = g.statusId;
  if (g.report !== undefined) out.report = g.report;
  if (g.moderationWarning !== undefined) out.moderation_warning = g.moderationWarning;
  if (g.event !== undefined) out.event = g.event;
  return out;
}

/** Mastodon's PartialAccountWithAvatar, from a whole Account's JSON. */
export function serializePartialAccount(account: Record<string, unknown>): Record<string, unknown> {
  const { id, acct, url, avatar, avatar_static, locked, bot } = account;
  return { id, acct, url, avatar, avatar_static, locked, bot };
}
