import type { Context } from "hono";
import { pageParams } from "../../pagination.ts";
import type { HonoEnv } from "../../types.ts";
import { empty, get, json, none, page, patch, post, unavailable, user } from "./dsl.ts";
import { defaultNotificationPolicy } from "./entities.ts";
import type { Placeholder } from "./types.ts";

/** `unread_count` takes a `limit` (100, at most 1000) like a list; nothing is unread. */
const unreadCount = (c: Context<HonoEnv>) => {
  pageParams(c, 100, 1000);
  return { count: 0 };
};

const READ = user("read:notifications");
const WRITE = user("write:notifications");

/** 1.4 Notification requests, policy and grouped notifications (v2); v1 notifications are built. */
export const notificationRows: Placeholder[] = [
  get("/api/v1/notifications/requests", READ, page(40)),
  get("/api/v1/notifications/requests/:id", READ, none()),
  post("/api/v1/notifications/requests/:id/accept", WRITE, none()),
  post("/api/v1/notifications/requests/:id/dismiss", WRITE, none()),
  post("/api/v1/notifications/requests/accept", WRITE, empty(), { note: "`{}` (none of the `id[]` exists)" }),
  post("/api/v1/notifications/requests/dismiss", WRITE, empty(), { note: "`{}` (none of the `id[]` exists)" }),
  get("/api/v1/notifications/requests/merged", READ, json({ merged: true }), { note: "`{merged: true}`" }),
  get("/api/v2/notifications/policy", READ, json(defaultNotificationPolicy), {
    note: "NotificationPolicy with Mastodon's defaults, nothing pending",
  }),
  patch("/api/v2/notifications/policy", WRITE, unavailable()),

  get("/api/v2/notifications", READ, page(40, 80, { accounts: [], statuses: [], notification_groups: [] }), {
    note: "`{accounts: [], statuses: [], notification_groups: []}` with a `Link` header",
  }),
  get("/api/v2/notifications/:group_key", READ, none()),
  post("/api/v2/notifications/:group_key/dismiss", WRITE, none()),
  get("/api/v2/notifications/:group_key/accounts", READ, none()),
  get("/api/v2/notifications/unread_count", READ, json(unreadCount), { note: "`{count: 0}`" }),
  post("/api/v2/notifications/clear", WRITE, empty(), { note: "`{}` (there is nothing to clear)" }),
];
