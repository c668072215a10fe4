import type { ColumnType, Generated } from "kysely";

/** Booleans are `boolean` in PostgreSQL and 0/1 in SQLite; read them with `Boolean(x)`. */
export type DbBool = boolean | number;

/** Timestamps are ISO 8601 strings (`2026-01-02T03:04:05.678Z`) in both databases. */
export type Timestamp = string;

export interface AccountsTable {
  id: string;
  username: string;
  /** null for local accounts. */
  domain: ColumnType<string | null, string | null | undefined, string | null>;
  display_name: Generated<string>;
  /** HTML (sanitised for remote accounts, rendered from `note_source` for local ones). */
  note: Generated<string>;
  note_source: Generated<string>;
  /** JSON: [{name, value, verified_at}] with `value` as HTML. */
  fields: Generated<string>;
  fields_source: Generated<string>;
  actor_type: Generated<string>;
  locked: Generated<DbBool>;
  discoverable: ColumnType<DbBool | null, DbBool | null | undefined, DbBool | null>;
  indexable: Generated<DbBool>;
  hide_collections: ColumnType<DbBool | null, DbBool | null | undefined, DbBool | null>;
  memorial: Generated<DbBool>;
  uri: string;
  url: ColumnType<string | null, string | null | undefined, string | null>;
  inbox_url: ColumnType<string | null, string | null | undefined, string | null>;
  outbox_url: ColumnType<string | null, string | null | undefined, string | null>;
  shared_inbox_url: ColumnType<string | null, string | null | undefined, string | null>;
  followers_url: ColumnType<string | null, string | null | undefined, string | null>;
  following_url: ColumnType<string | null, string | null | undefined, string | null>;
  featured_url: ColumnType<string | null, string | null | undefined, string | null>;
  featured_tags_url: ColumnType<string | null, string | null | undefined, string | null>;
  public_key_pem: ColumnType<string | null, string | null | undefined, string | null>;
  private_key_pem: ColumnType<string | null, string | null | undefined, string | null>;
  ed25519_public_key: ColumnType<string | null, string | null | undefined, string | null>;
  ed25519_private_key: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_path: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_remote_url: ColumnType<string | null, string | null | undefined, string | null>;
  avatar_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  header_path: ColumnType<string | null, string | null | undefined, string | null>;
  header_remote_url: ColumnType<string | null, string | null | undefined, string | null>;
  header_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  also_known_as: Generated<string>;
  moved_to_account_id: ColumnType<string | null, string | null | undefined, string | null>;
  suspended_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  suspension_origin: ColumnType<string | null, string | null | undefined, string | null>;
  silenced_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  sensitized_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  statuses_count: Generated<number>;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  last_status_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  fetched_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  encrypted_password: string;
  role_id: string;
  locale: string;
  confirmed_at: Timestamp | null;
  confirmation_token: string | null;
  confirmation_sent_at: Timestamp | null;
  unconfirmed_email: string | null;
  approved: DbBool;
  disabled: DbBool;
  reason: string | null;
  created_by_application_id: string | null;
  sign_up_ip: string | null;
  current_sign_in_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  /** JSON: privacy, sensitive, language, expand_media, expand_spoilers, ... */
  settings: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserRolesTable {
  id: string;
  name: string;
  color: string;
  /** Decimal bitmask (Mastodon's Role permissions). */
  permissions: number;
  position: number;
  highlighted: DbBool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OAuthApplicationsTable {
  id: string;
  name: string;
  website: string | null;
  /** Newline-separated. */
  redirect_uris: string;
  scopes: string;
  client_id: string;
  client_secret: string;
  superapp: DbBool;
  owner_account_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OAuthAccessGrantsTable {
  id: string;
  application_id: string;
  user_id: string;
  /** SHA-256 of the code. */
  code_hash: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

export interface OAuthAccessTokensTable {
  id: string;
  application_id: string | null;
  /** null for app tokens (client_credentials). */
  user_id: string | null;
  /** SHA-256 of the token. */
  token_hash: string;
  scopes: string;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface KvStoreTable {
  key: string;
  value: string;
  expires_at: Timestamp | null;
}

export interface SiteSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updated_at: Timestamp;
}

export interface RulesTable {
  id: string;
  text: string;
  hint: string;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JobsTable {
  id: string;
  name: string;
  /** JSON. */
  payload: string;
  /** `pending` (waiting or delayed), `running` or `dead`; finished jobs are deleted. */
  state: Generated<string>;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  locked_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  locked_by: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** Unique among pending jobs. */
  dedupe_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface SchedulerLeasesTable {
  name: string;
  next_run_at: Timestamp;
  locked_by: ColumnType<string | null, string | null | undefined, string | null>;
  locked_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  last_run_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface MediaAttachmentsTable {
  id: string;
  account_id: string;
  status_id: string | null;
  scheduled_status_id: string | null;
  /** image | gifv | video | audio | unknown */
  type: string;
  file_key: string | null;
  file_content_type: string | null;
  file_size: ColumnType<string | number | null, number | null, number | null>;
  small_key: string | null;
  thumbnail_key: string | null;
  thumbnail_content_type: string | null;
  remote_url: string | null;
  description: string | null;
  focus_x: number | null;
  focus_y: number | null;
  blurhash: string | null;
  /** JSON: Mastodon's `meta` without `focus` (kept in focus_x/focus_y). */
  meta: Generated<string>;
  /** queued | in_progress | complete | failed */
  processing: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface StatusesTable {
  id: string;
  uri: string;
  url: Nullable<string>;
  account_id: string;
  in_reply_to_id: Nullable<string>;
  in_reply_to_account_id: Nullable<string>;
  /** A boost is a status whose `reblog_of_id` is the boosted status. */
  reblog_of_id: Nullable<string>;
  conversation_id: Nullable<string>;
  /** The source text (plain text for local posts). */
  text: Generated<string>;
  /** HTML. */
  content: Generated<string>;
  spoiler_text: Generated<string>;
  visibility: string;
  sensitive: Generated<DbBool>;
  language: Nullable<string>;
  local: Generated<DbBool>;
  application_id: Nullable<string>;
  poll_id: Nullable<string>;
  edited_at: Nullable<Timestamp>;
  /** Set when deleted: the row stays as a tombstone, answered with 410. */
  deleted_at: Nullable<Timestamp>;
  replies_count: Generated<number>;
  reblogs_count: Generated<number>;
  favourites_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StatusEditsTable {
  id: string;
  status_id: string;
  account_id: string;
  text: string;
  content: string;
  spoiler_text: string;
  sensitive: DbBool;
  /** JSON array of the poll's option titles at that version, or null without a poll. */
  poll_options: Nullable<string>;
  created_at: Timestamp;
}

export interface MentionsTable {
  id: string;
  status_id: string;
  account_id: string;
  silent: Generated<DbBool>;
  created_at: Timestamp;
}

export interface TagsTable {
  id: string;
  /** Lower-cased; unique case-insensitively. */
  name: string;
  /** The spelling first used. */
  display_name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StatusesTagsTable {
  status_id: string;
  tag_id: string;
}

/** favourites, bookmarks and status_pins share this shape. */
export interface AccountStatusTable {
  id: string;
  account_id: string;
  status_id: string;
  created_at: Timestamp;
}

export interface ConversationMutesTable {
  id: string;
  account_id: string;
  conversation_id: string;
}

export interface FollowsTable {
  id: string;
  account_id: string;
  target_account_id: string;
  show_reblogs: Generated<DbBool>;
  notify: Generated<DbBool>;
  /** JSON array of language codes, or null for all. */
  languages: Nullable<string>;
  uri: Nullable<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `account_id` asked to follow the locked `target_account_id`; the options pass to the follow. */
export interface FollowRequestsTable {
  id: string;
  account_id: string;
  target_account_id: string;
  show_reblogs: Generated<DbBool>;
  notify: Generated<DbBool>;
  /** JSON array of language codes, or null for all. */
  languages: Nullable<string>;
  uri: Nullable<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

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

export interface CustomEmojisTable {
  id: string;
  /** Case-sensitive; unique per domain. */
  shortcode: string;
  /** null for local emojis. */
  domain: Nullable<string>;
  image_key: Nullable<string>;
  static_key: Nullable<string>;
  image_content_type: Nullable<string>;
  image_file_size: ColumnType<string | number | null, number | null | undefined, number | null>;
  image_remote_url: Nullable<string>;
  uri: Nullable<string>;
  category: Nullable<string>;
  visible_in_picker: Generated<DbBool>;
  disabled: Generated<DbBool>;
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

export interface TagFollowsTable {
  id: string;
  account_id: string;
  tag_id: string;
  created_at: Timestamp;
}

export interface FeaturedTagsTable {
  id: string;
  account_id: string;
  tag_id: string;
  /** The account's live public and unlisted posts using the tag (refreshed as they are read). */
  statuses_count: Generated<number>;
  last_status_at: Nullable<Timestamp>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Endorsements (Mastodon's account pins), dismissed suggestions: account to account. */
export interface AccountPairTable {
  id: string;
  account_id: string;
  target_account_id: string;
  created_at: Timestamp;
}

export interface AccountNotesTable {
  id: string;
  account_id: string;
  target_account_id: string;
  comment: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  accounts: AccountsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  oauth_applications: OAuthApplicationsTable;
  oauth_access_grants: OAuthAccessGrantsTable;
  oauth_access_tokens: OAuthAccessTokensTable;
  kv_store: KvStoreTable;
  site_settings: SiteSettingsTable;
  rules: RulesTable;
  media_attachments: MediaAttachmentsTable;
  jobs: JobsTable;
  scheduler_leases: SchedulerLeasesTable;
  statuses: StatusesTable;
  status_edits: StatusEditsTable;
  mentions: MentionsTable;
  tags: TagsTable;
  statuses_tags: StatusesTagsTable;
  favourites: AccountStatusTable;
  bookmarks: AccountStatusTable;
  status_pins: AccountStatusTable;
  conversation_mutes: ConversationMutesTable;
  follows: FollowsTable;
  follow_requests: FollowRequestsTable;
  feeds: FeedsTable;
  notifications: NotificationsTable;
  notification_policies: NotificationPoliciesTable;
  notification_requests: NotificationRequestsTable;
  notification_permissions: NotificationPermissionsTable;
  markers: MarkersTable;
  custom_emojis: CustomEmojisTable;
  polls: PollsTable;
  poll_votes: PollVotesTable;
  scheduled_statuses: ScheduledStatusesTable;
  blocks: BlocksTable;
  mutes: MutesTable;
  account_domain_blocks: AccountDomainBlocksTable;
  account_conversations: AccountConversationsTable;
  account_conversation_statuses: AccountConversationStatusesTable;
  lists: ListsTable;
  list_accounts: ListAccountsTable;
  list_feeds: ListFeedsTable;
  reports: ReportsTable;
  tag_follows: TagFollowsTable;
  featured_tags: FeaturedTagsTable;
  account_pins: AccountPairTable;
  account_notes: AccountNotesTable;
  account_suggestion_dismissals: AccountPairTable;
  filters: FiltersTable;
  filter_keywords: FilterKeywordsTable;
  filter_statuses: FilterStatusesTable;
}

/** A status's poll (`statuses.poll_id` points back at it). */
export interface PollsTable {
  id: string;
  account_id: string;
  status_id: string;
  expires_at: Nullable<Timestamp>;
  /** JSON array of option titles. */
  options: string;
  multiple: Generated<DbBool>;
  hide_totals: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One chosen option (an index into the poll's options) of one voter. */
export interface PollVotesTable {
  id: string;
  poll_id: string;
  account_id: string;
  choice: number;
  created_at: Timestamp;
}

export interface ScheduledStatusesTable {
  id: string;
  account_id: string;
  scheduled_at: Timestamp;
  /** JSON: the ScheduledStatus `params`. */
  params: string;
  created_at: Timestamp;
}

/** `account_id` blocks `target_account_id`. */
export interface BlocksTable {
  id: string;
  account_id: string;
  target_account_id: string;
  uri: Nullable<string>;
  created_at: Timestamp;
}

/** `account_id` hides what accounts of `domain` (normalised: lower-case, punycode) post, and their follows end. */
export interface AccountDomainBlocksTable {
  id: string;
  account_id: string;
  domain: string;
  created_at: Timestamp;
}

/** `account_id` mutes `target_account_id` (and their notifications when `hide_notifications`) until `expires_at`. */
export interface MutesTable {
  id: string;
  account_id: string;
  target_account_id: string;
  hide_notifications: Generated<DbBool>;
  expires_at: Nullable<string>;
  created_at: Timestamp;
}

/** A home feed entry: `status_id` (a post or a boost) is in `account_id`'s home timeline. */
export interface FeedsTable {
  account_id: string;
  status_id: string;
  reblog_of_id: Nullable<string>;
}

/** A list of accounts `account_id` made; `replies_policy` is `followed`, `list` or `none`. */
export interface ListsTable {
  id: string;
  account_id: string;
  title: string;
  replies_policy: Generated<string>;
  exclusive: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A keyword or status filter of `account_id` (Mastodon's CustomFilter). */
export interface FiltersTable {
  id: string;
  account_id: string;
  title: string;
  /** JSON array of contexts (home, notifications, public, thread, account). */
  context: string;
  /** warn, hide or blur. */
  action: Generated<string>;
  expires_at: Nullable<Timestamp>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `account_id` reports `target_account_id` (migration 0016). */
export interface ReportsTable {
  id: string;
  account_id: string;
  target_account_id: string;
  /** JSON array of status ids (strings). */
  status_ids: Generated<string>;
  comment: Generated<string>;
  category: Generated<string>;
  /** JSON array of rule ids (strings), or null. */
  rule_ids: Nullable<string>;
  forwarded: Generated<DbBool>;
  action_taken_at: Nullable<Timestamp>;
  action_taken_by_account_id: Nullable<string>;
  assigned_account_id: Nullable<string>;
  uri: Nullable<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FilterKeywordsTable {
  id: string;
  filter_id: string;
  keyword: string;
  whole_word: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A member of a list; `follow_id` is the owner's follow of them (null when owners list themselves). */
export interface ListAccountsTable {
  id: string;
  list_id: string;
  account_id: string;
  follow_id: Nullable<string>;
}

/** A list timeline entry, as `feeds` for home. */
export interface ListFeedsTable {
  list_id: string;
  status_id: string;
  reblog_of_id: Nullable<string>;
}

export interface FilterStatusesTable {
  id: string;
  filter_id: string;
  status_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type { Generated };
