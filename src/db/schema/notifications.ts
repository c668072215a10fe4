import type { DbBool, Generated, Nullable, Timestamp } from "./common.ts";

// Table types: Notifications, their policy and requests, markers and conversations.

export interface NotificationsTable {
  id: string;
  account_id: string;
  from_account_id: string;
  type: string;
  status_id: Nullable<string>;
  activity_id: string;
  group_key: string;
  /** Held back by the recipient's notification policy: only in its request, or with `include_filtered`. */
  filtered: Generated<DbBool>;
  created_at: Timestamp;
}

/** A category of the notification policy: `accept`, `filter` or `drop`. */
export type NotificationPolicyValue = "accept" | "filter" | "drop";

/** An account's notification policy (Mastodon 4.3); no row means every category is `accept`. */
export interface NotificationPoliciesTable {
  account_id: string;
  for_not_following: Generated<NotificationPolicyValue>;
  for_not_followers: Generated<NotificationPolicyValue>;
  for_new_accounts: Generated<NotificationPolicyValue>;
  for_private_mentions: Generated<NotificationPolicyValue>;
  for_limited_accounts: Generated<NotificationPolicyValue>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The filtered mentions `from_account_id` sent `account_id`, waiting to be accepted or dismissed. */
export interface NotificationRequestsTable {
  id: string;
  account_id: string;
  from_account_id: string;
  last_status_id: Nullable<string>;
  notifications_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `account_id` accepted a request from `from_account_id`: its notifications are never filtered. */
export interface NotificationPermissionsTable {
  id: string;
  account_id: string;
  from_account_id: string;
  created_at: Timestamp;
}

export interface MarkersTable {
  id: string;
  account_id: string;
  timeline: string;
  last_read_id: string;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountConversationsTable {
  id: string;
  account_id: string;
  conversation_id: string;
  /** The other participants, sorted and comma-joined ("" for a note to oneself). */
  participant_account_ids: string;
  last_status_id: string;
  unread: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountConversationStatusesTable {
  account_conversation_id: string;
  status_id: string;
}
