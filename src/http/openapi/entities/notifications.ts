import { z } from "zod";
import { Account, PartialAccountWithAvatar } from "./accounts.ts";
import { Report } from "./admin.ts";
import { count, dateTime, entity, id, NOTIFICATION_TYPE_NAMES, PUSH_ALERT_TYPE_NAMES, url } from "./common.ts";
import { Status } from "./statuses.ts";

const notificationType = () => z.enum(NOTIFICATION_TYPE_NAMES);

export const AccountWarning = entity(
  "AccountWarning",
  "A moderation action taken against the user's account (a strike), as its `moderation_warning` notification shows it.",
  z.object({
    id: id(),
    action: z.enum([
      "none",
      "disable",
      "mark_statuses_as_sensitive",
      "delete_statuses",
      "sensitive",
      "silence",
      "suspend",
    ]),
    text: z.string(),
    status_ids: z.array(id()).nullable(),
    target_account: Account,
    appeal: z.null().describe("Gannet has no appeals"),
    created_at: dateTime(),
  }),
);

export const RelationshipSeveranceEvent = entity(
  "RelationshipSeveranceEvent",
  "Follows a moderation action cut (a domain suspension), as one local user lost them (Mastodon 4.3).",
  z.object({
    id: id(),
    type: z.enum(["domain_block", "user_domain_block", "account_suspension"]),
    purged: z.boolean(),
    target_name: z.string(),
    followers_count: count(),
    following_count: count(),
    created_at: dateTime(),
  }),
);

export const Notification = entity(
  "Notification",
  "Something that happened to the signed-in user; `status` for the types about a post, `report` for admin.report, `moderation_warning` for moderation_warning, `event` for severed_relationships.",
  z.object({
    id: id(),
    type: notificationType(),
    group_key: z.string(),
    created_at: dateTime(),
    account: Account,
    status: Status.optional(),
    report: Report.optional(),
    moderation_warning: AccountWarning.optional(),
    event: RelationshipSeveranceEvent.optional(),
  }),
);

export const NotificationGroup = entity(
  "NotificationGroup",
  "Notifications of one kind about one thing, folded together; the `page_*` members only in a listed page.",
  z.object({
    group_key: z.string(),
    notifications_count: count(),
    type: notificationType(),
    most_recent_notification_id: id(),
    page_min_id: id().optional(),
    page_max_id: id().optional(),
    latest_page_notification_at: dateTime().optional(),
    sample_account_ids: z.array(id()),
    status_id: id().optional(),
    report: Report.optional(),
    moderation_warning: AccountWarning.optional(),
    event: RelationshipSeveranceEvent.optional(),
  }),
);

export const GroupedNotificationsResults = entity(
  "GroupedNotificationsResults",
  "A page of grouped notifications with the accounts and posts they name, each given once.",
  z.object({
    accounts: z.array(Account),
    partial_accounts: z.array(PartialAccountWithAvatar).optional(),
    statuses: z.array(Status),
    notification_groups: z.array(NotificationGroup),
  }),
);

const policyValue = () => z.enum(["accept", "filter", "drop"]);

export const NotificationPolicy = entity(
  "NotificationPolicy",
  "What becomes of notifications from each kind of unknown sender, with the count of those held back.",
  z.object({
    for_not_following: policyValue(),
    for_not_followers: policyValue(),
    for_new_accounts: policyValue(),
    for_private_mentions: policyValue(),
    for_limited_accounts: policyValue(),
    summary: z.object({ pending_requests_count: count(), pending_notifications_count: count() }),
  }),
);

export const NotificationRequest = entity(
  "NotificationRequest",
  "Notifications held back from one sender, waiting for the user to accept or dismiss them.",
  z.object({
    id: id(),
    created_at: dateTime(),
    updated_at: dateTime(),
    account: Account,
    notifications_count: z.string(),
    last_status: Status.optional(),
  }),
);

export const WebPushSubscription = entity(
  "WebPushSubscription",
  "The token's Web Push subscription: where to push, which notification types, and the server's key.",
  z.object({
    id: id(),
    endpoint: url(),
    standard: z.boolean(),
    alerts: z.object(Object.fromEntries(PUSH_ALERT_TYPE_NAMES.map((t) => [t, z.boolean()]))),
    server_key: z.string(),
    policy: z.enum(["all", "followed", "follower", "none"]),
  }),
);

export const Marker = entity(
  "Marker",
  "Where the user stopped reading a timeline; `version` counts the saves.",
  z.object({ last_read_id: id(), version: count(), updated_at: dateTime() }),
);

export const Markers = entity(
  "Markers",
  "The user's reading positions, keyed by timeline (only those saved).",
  z.object({ home: Marker.optional(), notifications: Marker.optional() }),
);
