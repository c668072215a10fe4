import type { ColumnType, DbBool, Nullable, Timestamp } from "./common.ts";

// Table types: announcements (migration 0029) and the PostgreSQL event bus's tables.

export interface AnnouncementsTable {
  id: string;
  /** Plain text as the admin wrote it; rendered to HTML when served, as Mastodon does. */
  text: string;
  published: ColumnType<DbBool, DbBool | undefined, DbBool>;
  all_day: ColumnType<DbBool, DbBool | undefined, DbBool>;
  scheduled_at: Nullable<Timestamp>;
  starts_at: Nullable<Timestamp>;
  ends_at: Nullable<Timestamp>;
  published_at: Nullable<Timestamp>;
  /** JSON array of status ids, or null. */
  status_ids: Nullable<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AnnouncementMutesTable {
  account_id: string;
  announcement_id: string;
  created_at: Timestamp;
}

export interface AnnouncementReactionsTable {
  id: string;
  account_id: string;
  announcement_id: string;
  name: string;
  custom_emoji_id: Nullable<string>;
  created_at: Timestamp;
}

export interface BusListenersTable {
  channel: string;
  /** ms since the epoch, by the database's clock. */
  since: ColumnType<string | number, string | number, string | number>;
  expires_at: ColumnType<string | number, string | number, string | number>;
}

export interface BusPayloadsTable {
  id: string;
  body: string;
  created_at: ColumnType<string | number, string | number, string | number>;
}
