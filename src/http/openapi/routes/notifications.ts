import { z } from "zod";
import { policyParams } from "../../api/v2/notifications/policy.ts";
import { arrayOf } from "../../validate.ts";
import type { DocArea } from "../types.ts";
import { bool, d, EMPTY, ids, pageOf } from "./common.ts";

/** What notifications/routes.ts `filterOf` reads by hand. */
const filter = z.object({
  types: arrayOf(z.string()).optional().describe("Only these types"),
  exclude_types: arrayOf(z.string()).optional().describe("Not these types"),
  account_id: z.string().optional().describe("Only from this account"),
  include_filtered: bool.describe("Include notifications the policy filtered"),
});
/** What v2/notifications/routes.ts reads by hand. */
const grouped = filter.extend({
  grouped_types: arrayOf(z.string()).optional().describe("Types that are grouped (Mastodon's default when absent)"),
  expand_accounts: z.enum(["full", "partial_avatars"]).optional(),
});
const groupKey = { pathDescriptions: { group_key: "`ungrouped-<id>`, `<type>-<status>-<hour>`, `follow-<hour>`" } };
const requests = "NotificationRequest";

/** What push/routes.ts `parseSubscription` and `parseData` read by hand. */
const pushData = z
  .object({
    alerts: z
      .record(z.string(), z.boolean())
      .optional()
      .describe("Notification types to push, as `data[alerts][mention]`"),
    policy: z.enum(["all", "followed", "follower", "none"]).optional(),
  })
  .optional();
const subscribe = z.object({
  subscription: z.object({
    endpoint: z.string(),
    keys: z.object({ p256dh: z.string(), auth: z.string() }),
    standard: z.boolean().optional().describe("RFC 8291 encryption"),
  }),
  data: pushData,
});

/** Notifications v1 and v2 (grouped), notification requests and policy, Web Push. */
export const notificationDocs: DocArea = {
  tag: "Notifications",
  description: "Notifications, grouped notifications, the filtering policy and Web Push subscriptions",
  routes: {
    "GET /api/v1/notifications": pageOf("Notifications", "Notification", 40, 80, { query: filter }),
    "GET /api/v1/notifications/unread_count": d("How many notifications are unread", "UnreadCount", {
      query: filter,
      paginated: { limit: 100, max: 1000 },
    }),
    "POST /api/v1/notifications/clear": d("Dismiss every notification", EMPTY),
    "GET /api/v1/notifications/:id{[0-9]+}": d("One notification", "Notification"),
    "POST /api/v1/notifications/:id{[0-9]+}/dismiss": d("Dismiss a notification", EMPTY),
    "GET /api/v1/notifications/requests": pageOf("Filtered notification requests", requests, 40, 80),
    "GET /api/v1/notifications/requests/merged": d("Whether accepted requests were merged", {
      schema: { type: "object", properties: { merged: { type: "boolean" } } },
    }),
    "POST /api/v1/notifications/requests/accept": d("Accept several requests", EMPTY, { body: ids }),
    "POST /api/v1/notifications/requests/dismiss": d("Dismiss several requests", EMPTY, { body: ids }),
    "GET /api/v1/notifications/requests/:id{[0-9]+}": d("One notification request", requests),
    "POST /api/v1/notifications/requests/:id{[0-9]+}/accept": d("Accept a request", EMPTY),
    "POST /api/v1/notifications/requests/:id{[0-9]+}/dismiss": d("Dismiss a request", EMPTY),
    "GET /api/v2/notifications/policy": d("The notification filtering policy", "NotificationPolicy"),
    "PATCH /api/v2/notifications/policy": d("Change the policy", "NotificationPolicy", { body: policyParams }),
    "PUT /api/v2/notifications/policy": d("Change the policy (as PATCH)", "NotificationPolicy", { body: policyParams }),
    "GET /api/v2/notifications": pageOf("Grouped notifications", "GroupedNotificationsResults", 40, 80, {
      ok: "GroupedNotificationsResults",
      query: grouped,
      errors: [400],
    }),
    "GET /api/v2/notifications/unread_count": d("How many notification groups are unread", "UnreadCount", {
      query: grouped,
      paginated: { limit: 100, max: 1000 },
    }),
    "POST /api/v2/notifications/clear": d("Dismiss every notification", EMPTY),
    "GET /api/v2/notifications/:group_key{[a-z._]+-[0-9a-z._-]+}": d(
      "One notification group",
      "GroupedNotificationsResults",
      groupKey,
    ),
    "POST /api/v2/notifications/:group_key{[a-z._]+-[0-9a-z._-]+}/dismiss": d("Dismiss a group", EMPTY, groupKey),
    "GET /api/v2/notifications/:group_key{[a-z._]+-[0-9a-z._-]+}/accounts": pageOf(
      "The accounts of a group",
      "Account",
      40,
      80,
      groupKey,
    ),
    "POST /api/v1/push/subscription": d("Subscribe the token to Web Push", "WebPushSubscription", {
      body: subscribe,
      errors: [400],
      tags: ["Push"],
    }),
    "GET /api/v1/push/subscription": d("The token's Web Push subscription", "WebPushSubscription", {
      errors: [404],
      tags: ["Push"],
    }),
    "PUT /api/v1/push/subscription": d("Change what is pushed", "WebPushSubscription", {
      body: z.object({ data: pushData }),
      errors: [404],
      tags: ["Push"],
    }),
    "DELETE /api/v1/push/subscription": d("Unsubscribe", EMPTY, { tags: ["Push"] }),
  },
};
