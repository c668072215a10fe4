import type { DbBool, Generated, Nullable, Timestamp } from "./common.ts";

// Table types: preview cards (migration 0027).

/** One OpenGraph card per page URL, shared by the statuses linking to it. */
export interface PreviewCardsTable {
  id: string;
  url: string;
  title: Generated<string>;
  description: Generated<string>;
  /** link | photo | video | rich */
  type: Generated<string>;
  author_name: Generated<string>;
  author_url: Generated<string>;
  provider_name: Generated<string>;
  provider_url: Generated<string>;
  html: Generated<string>;
  embed_url: Generated<string>;
  language: Nullable<string>;
  width: Generated<number>;
  height: Generated<number>;
  /** The image as stored here; null when there is none or its cached copy was removed. */
  image_key: Nullable<string>;
  image_remote_url: Nullable<string>;
  image_description: Generated<string>;
  blurhash: Nullable<string>;
  published_at: Nullable<Timestamp>;
  /** A moderator's decision on the link trending (migration 0040); null: not reviewed. */
  trendable: Nullable<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A status's card, with the link as the status wrote it. */
export interface PreviewCardsStatusesTable {
  status_id: string;
  preview_card_id: string;
  url: string;
}
