import type { DbBool, Generated, Nullable, Timestamp } from "./common.ts";

// Table types: The social graph and personal curation: follows, blocks, mutes, domain blocks,
// lists, filters, reports, tags, endorsements, notes.

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

/** `account_id` blocks `target_account_id`. */
export interface BlocksTable {
  id: string;
  account_id: string;
  target_account_id: string;
  uri: Nullable<string>;
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

/** `account_id` hides what accounts of `domain` (normalised: lower-case, punycode) post, and their follows end. */
export interface AccountDomainBlocksTable {
  id: string;
  account_id: string;
  domain: string;
  created_at: Timestamp;
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

export interface FilterKeywordsTable {
  id: string;
  filter_id: string;
  keyword: string;
  whole_word: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FilterStatusesTable {
  id: string;
  filter_id: string;
  status_id: string;
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

/** How deliveries to one remote server went (migration 0054; services/federation/delivery-health.ts). */
export interface DeliveryHealthTable {
  domain: string;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: number;
  failures_total: number;
  successes_total: number;
  last_error: string | null;
  updated_at: string;
  /** Days (UTC) on which deliveries could not reach the server since it last answered (0055). */
  failure_days: number;
  /** The last of those days, `YYYY-MM-DD`. */
  last_failure_day: string | null;
  /** Marked unavailable then (seven failure days): deliveries to it are skipped. */
  unavailable_since: string | null;
}

/** Staff notes on a report (Mastodon's ReportNote, migration 0052). */
export interface ReportNotesTable {
  id: string;
  report_id: string;
  account_id: string;
  content: string;
  created_at: Timestamp;
  updated_at: Timestamp;
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

/** An instance-level domain block (moderation; migration 0026). `domain` may carry a port. */
export interface InstanceDomainBlocksTable {
  id: string;
  domain: string;
  /** noop | silence | suspend */
  severity: Generated<string>;
  reject_media: Generated<DbBool>;
  reject_reports: Generated<DbBool>;
  private_comment: Nullable<string>;
  public_comment: Nullable<string>;
  obfuscate: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A domain federation is allowed with in limited-federation mode (migration 0026). */
export interface DomainAllowsTable {
  id: string;
  domain: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
