/**
 * The parts of Mastodon's API entities the public pages read. The pages render from the same
 * JSON the API serves an anonymous caller (statusesText / accountJson), so a page never shows
 * more than the API would, and URLs (media, avatars, emojis, the media proxy) are made in one
 * place.
 */

export interface WebEmoji {
  shortcode: string;
  url: string;
  static_url: string;
}

export interface WebField {
  name: string;
  /** Sanitised HTML (rendered here for local accounts, sanitised on arrival for remote ones). */
  value: string;
  verified_at: string | null;
}

export interface WebAccount {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  locked: boolean;
  bot: boolean;
  group: boolean;
  created_at: string;
  /** Sanitised HTML. */
  note: string;
  url: string;
  uri: string;
  avatar: string;
  avatar_static: string;
  header: string;
  header_static: string;
  followers_count: number;
  following_count: number;
  statuses_count: number;
  hide_collections: boolean | null;
  emojis: WebEmoji[];
  fields: WebField[];
  noindex?: boolean;
  suspended?: boolean;
  limited?: boolean;
  memorial?: boolean;
  moved?: WebAccount;
}

export interface WebMedia {
  id: string;
  type: "image" | "gifv" | "video" | "audio" | "unknown";
  url: string | null;
  preview_url: string | null;
  remote_url: string | null;
  description: string | null;
  meta?: { original?: { width?: number; height?: number }; small?: { width?: number; height?: number } };
}

export interface WebPoll {
  id: string;
  expires_at: string | null;
  expired: boolean;
  multiple: boolean;
  votes_count: number;
  voters_count: number | null;
  options: { title: string; votes_count: number | null }[];
  emojis: WebEmoji[];
}

export interface WebStatus {
  id: string;
  created_at: string;
  in_reply_to_id: string | null;
  in_reply_to_account_id: string | null;
  sensitive: boolean;
  spoiler_text: string;
  visibility: "public" | "unlisted" | "private" | "direct";
  language: string | null;
  uri: string;
  url: string | null;
  replies_count: number;
  reblogs_count: number;
  favourites_count: number;
  edited_at: string | null;
  /** Sanitised HTML (made here for local posts, sanitised on arrival for remote ones). */
  content: string;
  reblog: WebStatus | null;
  account: WebAccount;
  media_attachments: WebMedia[];
  mentions: { id: string; username: string; acct: string; url: string }[];
  tags: { name: string; url: string }[];
  emojis: WebEmoji[];
  poll: WebPoll | null;
}
