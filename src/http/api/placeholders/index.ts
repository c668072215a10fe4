import { accountRows } from "./accounts.ts";
import { adminRows } from "./admin.ts";
import { discoveryRows } from "./discovery.ts";
import { listFilterRows } from "./lists-filters.ts";
import { notificationRows } from "./notifications.ts";
import { pushCollectionRows } from "./push-collections.ts";
import { socialRows } from "./social.ts";
import { statusRows } from "./statuses.ts";
import { tagMediaRows } from "./tags-media.ts";
import { timelineRows } from "./timelines.ts";
import type { Placeholder } from "./types.ts";

export interface Area {
  title: string;
  rows: Placeholder[];
}

/** Every placeholder, by area of the Mastodon API (the order of the README's compatibility section). */
export const AREAS: readonly Area[] = [
  { title: "Accounts, profile, suggestions", rows: accountRows },
  { title: "Statuses, polls, scheduled statuses", rows: statusRows },
  { title: "Timelines, favourites, bookmarks, markers, conversations", rows: timelineRows },
  { title: "Notifications", rows: notificationRows },
  { title: "Follow requests, blocks, mutes, domain blocks, reports", rows: socialRows },
  { title: "Lists and filters", rows: listFilterRows },
  { title: "Tags and media", rows: tagMediaRows },
  { title: "Search, trends, announcements, misc", rows: discoveryRows },
  { title: "Web Push, collections, experimental", rows: pushCollectionRows },
  { title: "Admin API", rows: adminRows },
];

export const PLACEHOLDERS: readonly Placeholder[] = AREAS.flatMap((a) => a.rows);

export interface OtherEndpoint {
  /** `*` for every method; a path ending in `/*` covers everything below it. */
  method: string;
  path: string;
  note: string;
}

/** Endpoints that other work builds for real; no placeholder is registered for them. */
export const BUILT_ELSEWHERE: readonly OtherEndpoint[] = [
  { method: "POST", path: "/api/v1/apps", note: "app registration" },
  { method: "GET", path: "/api/v1/apps/verify_credentials", note: "the token's application" },
  { method: "*", path: "/oauth/*", note: "authorize, token, revoke, userinfo" },
  { method: "*", path: "/.well-known/*", note: "WebFinger, host-meta, NodeInfo discovery, OAuth metadata" },
  { method: "*", path: "/nodeinfo/*", note: "NodeInfo 2.0" },
  { method: "POST", path: "/api/v1/accounts", note: "registration" },
  { method: "GET", path: "/api/v1/accounts/verify_credentials", note: "CredentialAccount" },
  { method: "PATCH", path: "/api/v1/accounts/update_credentials", note: "profile and settings" },
  { method: "PUT", path: "/api/v1/accounts/update_credentials", note: "profile and settings" },
  { method: "GET", path: "/api/v1/accounts/:id", note: "one account" },
  { method: "GET", path: "/api/v1/accounts", note: "accounts by `id[]`" },
  { method: "GET", path: "/api/v1/accounts/lookup", note: "account by `acct`" },
  { method: "DELETE", path: "/api/v1/profile/avatar", note: "remove avatar" },
  { method: "DELETE", path: "/api/v1/profile/header", note: "remove header" },
  { method: "GET", path: "/api/v1/preferences", note: "posting and reading preferences" },
  { method: "POST", path: "/api/v1/emails/confirmations", note: "resend confirmation" },
  { method: "GET", path: "/api/v1/emails/check_confirmation", note: "is the e-mail confirmed" },
  { method: "GET", path: "/api/v1/instance", note: "V1::Instance" },
  {
    method: "GET",
    path: "/api/v1/instance/*",
    note: "peers, activity, rules, domain blocks, descriptions, ToS, languages",
  },
  { method: "GET", path: "/api/v2/instance", note: "Instance" },
  { method: "GET", path: "/health", note: "plain `OK`" },
  { method: "POST", path: "/api/v1/statuses", note: "post, with a poll; `scheduled_at` answers a ScheduledStatus" },
  { method: "GET", path: "/api/v1/statuses", note: "statuses by `id[]`" },
  { method: "GET", path: "/api/v1/statuses/:id", note: "one status, visibility enforced; 410 when deleted" },
  { method: "PUT", path: "/api/v1/statuses/:id", note: "edit" },
  { method: "DELETE", path: "/api/v1/statuses/:id", note: "delete, with `text` for redraft" },
  { method: "GET", path: "/api/v1/statuses/:id/context", note: "visible ancestors and descendants" },
  { method: "GET", path: "/api/v1/statuses/:id/history", note: "StatusEdit[]" },
  { method: "GET", path: "/api/v1/statuses/:id/source", note: "StatusSource" },
  { method: "GET", path: "/api/v1/statuses/:id/favourited_by", note: "accounts, Link" },
  { method: "GET", path: "/api/v1/statuses/:id/reblogged_by", note: "accounts, Link" },
  { method: "POST", path: "/api/v1/statuses/:id/favourite", note: "favourite" },
  { method: "POST", path: "/api/v1/statuses/:id/unfavourite", note: "undo" },
  { method: "POST", path: "/api/v1/statuses/:id/reblog", note: "boost" },
  { method: "POST", path: "/api/v1/statuses/:id/unreblog", note: "undo" },
  { method: "POST", path: "/api/v1/statuses/:id/bookmark", note: "bookmark" },
  { method: "POST", path: "/api/v1/statuses/:id/unbookmark", note: "undo" },
  { method: "POST", path: "/api/v1/statuses/:id/mute", note: "mute the thread" },
  { method: "POST", path: "/api/v1/statuses/:id/unmute", note: "undo" },
  { method: "POST", path: "/api/v1/statuses/:id/pin", note: "pin (max 5)" },
  { method: "POST", path: "/api/v1/statuses/:id/unpin", note: "undo" },
  { method: "GET", path: "/api/v1/accounts/:id/statuses", note: "an account's statuses" },
  { method: "GET", path: "/api/v1/favourites", note: "own favourites, Link" },
  { method: "GET", path: "/api/v1/bookmarks", note: "own bookmarks, Link" },
  { method: "GET", path: "/api/v1/tags/:name", note: "Tag with its 7-day history" },
  { method: "POST", path: "/api/v1/media", note: "upload, processed before answering" },
  { method: "POST", path: "/api/v2/media", note: "upload; 202 while video or audio is processed" },
  { method: "GET", path: "/api/v1/media/:id", note: "MediaAttachment; 206 while processing" },
  { method: "PUT", path: "/api/v1/media/:id", note: "description, focus, thumbnail" },
  { method: "DELETE", path: "/api/v1/media/:id", note: "unattached uploads" },
  { method: "GET", path: "/api/v1/notifications", note: "`types[]`, `exclude_types[]`, `account_id`, Link" },
  { method: "GET", path: "/api/v1/notifications/:id", note: "one notification" },
  { method: "POST", path: "/api/v1/notifications/clear", note: "delete all" },
  { method: "POST", path: "/api/v1/notifications/:id/dismiss", note: "delete one" },
  { method: "GET", path: "/api/v1/notifications/unread_count", note: "newer than the notifications marker" },
  {
    method: "GET",
    path: "/api/v2/notifications",
    note: "grouped: `grouped_types[]`, `expand_accounts`, `types[]`, `exclude_types[]`, `account_id`, Link",
  },
  { method: "GET", path: "/api/v2/notifications/:group_key", note: "one group" },
  { method: "POST", path: "/api/v2/notifications/:group_key/dismiss", note: "delete the whole group" },
  {
    method: "GET",
    path: "/api/v2/notifications/:group_key/accounts",
    note: "the accounts of the group's notifications, Link",
  },
  { method: "GET", path: "/api/v2/notifications/unread_count", note: "groups newer than the notifications marker" },
  { method: "POST", path: "/api/v2/notifications/clear", note: "delete all (as v1)" },
  { method: "GET", path: "/api/v1/conversations", note: "direct-message conversations, Link by last status" },
  { method: "DELETE", path: "/api/v1/conversations/:id", note: "remove a conversation" },
  { method: "POST", path: "/api/v1/conversations/:id/read", note: "mark read" },
  { method: "POST", path: "/api/v1/conversations/:id/unread", note: "mark unread" },
  { method: "GET", path: "/api/v1/markers", note: "home and notifications positions" },
  { method: "POST", path: "/api/v1/markers", note: "save positions; 409 on a concurrent update" },
  { method: "GET", path: "/api/v1/timelines/home", note: "materialised home feed, Link" },
  { method: "GET", path: "/api/v1/timelines/public", note: "`local`, `remote`, `only_media`, Link" },
  {
    method: "GET",
    path: "/api/v1/timelines/tag/:hashtag",
    note: "`any[]`, `all[]`, `none[]`, `local`, `remote`, `only_media`, Link",
  },
  { method: "GET", path: "/api/v1/custom_emojis", note: "local emojis shown in the picker (`gannet emoji`)" },
  { method: "GET", path: "/api/v1/polls/:id", note: "Poll, visibility of its status" },
  { method: "POST", path: "/api/v1/polls/:id/votes", note: "vote (`choices[]`)" },
  { method: "GET", path: "/api/v1/scheduled_statuses", note: "own scheduled statuses, Link" },
  { method: "GET", path: "/api/v1/scheduled_statuses/:id", note: "one ScheduledStatus" },
  { method: "PUT", path: "/api/v1/scheduled_statuses/:id", note: "move `scheduled_at`" },
  { method: "DELETE", path: "/api/v1/scheduled_statuses/:id", note: "cancel" },
  { method: "POST", path: "/api/v1/accounts/:id/block", note: "block: ends follows both ways, clears home feeds" },
  { method: "POST", path: "/api/v1/accounts/:id/unblock", note: "undo" },
  { method: "POST", path: "/api/v1/accounts/:id/mute", note: "mute: `notifications`, `duration` (0 = forever)" },
  { method: "POST", path: "/api/v1/accounts/:id/unmute", note: "undo" },
  { method: "GET", path: "/api/v1/accounts/relationships", note: "Relationship per `id[]`, `with_suspended`" },
  { method: "GET", path: "/api/v1/blocks", note: "blocked accounts, Link" },
  { method: "GET", path: "/api/v1/mutes", note: "muted accounts with `mute_expires_at`, Link" },
  { method: "GET", path: "/api/v2/search", note: "accounts, hashtags, full-text statuses (signed in)" },
  { method: "GET", path: "/api/v1/accounts/search", note: "accounts by name, `following`" },
  { method: "GET", path: "/api/v2/filters", note: "the caller's filters with keywords and statuses" },
  { method: "GET", path: "/api/v2/filters/:id", note: "one filter" },
  { method: "POST", path: "/api/v2/filters", note: "create, with `keywords_attributes[]`" },
  { method: "PUT", path: "/api/v2/filters/:id", note: "edit; keywords created, edited, `_destroy`ed in one request" },
  { method: "DELETE", path: "/api/v2/filters/:id", note: "delete with its keywords and statuses" },
  { method: "GET", path: "/api/v2/filters/:filter_id/keywords", note: "FilterKeyword[]" },
  { method: "POST", path: "/api/v2/filters/:filter_id/keywords", note: "add a keyword (also at `.../keywords/:id`)" },
  { method: "GET", path: "/api/v2/filters/keywords/:id", note: "one keyword (also under /api/v1)" },
  { method: "PUT", path: "/api/v2/filters/keywords/:id", note: "edit a keyword (also under /api/v1)" },
  { method: "DELETE", path: "/api/v2/filters/keywords/:id", note: "remove a keyword (also under /api/v1)" },
  { method: "GET", path: "/api/v2/filters/:filter_id/statuses", note: "FilterStatus[]" },
  { method: "POST", path: "/api/v2/filters/:filter_id/statuses", note: "filter a status the caller may see" },
  { method: "GET", path: "/api/v2/filters/statuses/:id", note: "one FilterStatus" },
  { method: "DELETE", path: "/api/v2/filters/statuses/:id", note: "remove; answers the FilterStatus" },
  { method: "GET", path: "/api/v1/filters", note: "V1::Filter per keyword" },
  { method: "GET", path: "/api/v1/filters/:id", note: "one V1::Filter" },
  { method: "POST", path: "/api/v1/filters", note: "a one-keyword filter; `irreversible` is `hide`" },
  { method: "PUT", path: "/api/v1/filters/:id", note: "edit (422 for a filter of several keywords)" },
  { method: "DELETE", path: "/api/v1/filters/:id", note: "remove the keyword (and its filter when empty)" },
];

/** Census endpoints that get no placeholder on purpose. */
export const NOT_SERVED: readonly OtherEndpoint[] = [
  {
    method: "GET",
    path: "/api/v1/streaming",
    note: "WebSocket streaming: left to the streaming work (a placeholder would break the upgrade)",
  },
  {
    method: "GET",
    path: "/api/v1/streaming/*",
    note: "server-sent event streams: left to the streaming work (only `/api/v1/streaming/health` answers now)",
  },
  { method: "*", path: "/api/web/*", note: "internal to Mastodon's own web UI, not used by clients" },
];
