import type { ColumnType, DbBool, Generated, Nullable, Timestamp } from "./common.ts";

// Table types: Statuses and what hangs off them: media, edits, mentions, tags, interactions,
// polls, scheduled posts, custom emojis, home feeds.

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
  /** Accepted quotes of this post (migration 0041). */
  quotes_count: Generated<number>;
  /** JSON `{"automatic": [...], "manual": [...]}` (QuoteApproval's words); null: only the author may quote. */
  quote_policy: Nullable<string>;
  /** A moderator's decision on the post trending (migration 0040); null: not reviewed. */
  trendable: Nullable<DbBool>;
  /** When staff were told the post waits for trend review (migration 0045). */
  requested_review_at: Nullable<Timestamp>;
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
  /** Moderators' switches (migration 0034); null: not reviewed, which allows use and listing. */
  usable: Nullable<DbBool>;
  listable: Nullable<DbBool>;
  trendable: Nullable<DbBool>;
  reviewed_at: Nullable<Timestamp>;
  requested_review_at: Nullable<Timestamp>;
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
  /** A remote poll's counts per option as its server reports them (JSON array), else null (migration 0026). */
  remote_counts: Nullable<string>;
  remote_voters_count: Nullable<number>;
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

/** A home feed entry: `status_id` (a post or a boost) is in `account_id`'s home timeline. */
export interface FeedsTable {
  account_id: string;
  status_id: string;
  reblog_of_id: Nullable<string>;
}
