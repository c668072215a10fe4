import type { DbBool, Generated, Nullable, Timestamp } from "./common.ts";

// Table types: trends (migration 0040) and quote posts (migration 0041).

/** The latest score and rank of a trending hashtag; `allowed`: may be shown publicly. */
export interface TrendTagsTable {
  tag_id: string;
  score: Generated<number>;
  rank: Generated<number>;
  allowed: Generated<DbBool>;
  updated_at: Timestamp;
}

export interface TrendStatusesTable {
  status_id: string;
  account_id: string;
  language: Nullable<string>;
  score: Generated<number>;
  rank: Generated<number>;
  allowed: Generated<DbBool>;
  updated_at: Timestamp;
}

export interface TrendLinksTable {
  preview_card_id: string;
  language: Nullable<string>;
  score: Generated<number>;
  rank: Generated<number>;
  allowed: Generated<DbBool>;
  updated_at: Timestamp;
}

/** A site links come from, by host name; `trendable` null: not reviewed. */
export interface PreviewCardProvidersTable {
  id: string;
  domain: string;
  trendable: Nullable<DbBool>;
  reviewed_at: Nullable<Timestamp>;
  requested_review_at: Nullable<Timestamp>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One quoting post (`status_id`) and the state of its approval by the quoted post's author. */
export interface QuotesTable {
  id: string;
  status_id: string;
  account_id: string;
  quoted_status_id: Nullable<string>;
  quoted_account_id: Nullable<string>;
  /** pending | accepted | rejected | revoked | deleted | unauthorized */
  state: string;
  quoted_uri: Nullable<string>;
  approval_uri: Nullable<string>;
  activity_uri: Nullable<string>;
  legacy: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
