import { empty, get, json, none, page, patch, post, unavailable, user } from "./dsl.ts";
import { defaultNotificationPolicy } from "./entities.ts";
import type { Placeholder } from "./types.ts";

const READ = user("read:notifications");
const WRITE = user("write:notifications");

/** 1.4 Notification requests and policy; v1 and grouped (v2) notifications are built. */
export const notificationRows: Placeholder[] = [
  get("/api/v1/notifications/requests", READ, page(40)),
  get("/api/v1/notifications/requests/:id", READ, none()),
  post("/api/v1/notifications/requests/:id/accept", WRITE, none()),
  post("/api/v1/notifications/requests/:id/dismiss", WRITE, none()),
  post("/api/v1/notifications/requests/accept", WRITE, empty(), { note: "`{}` (none of the `id[]` exists)" }),
  post("/api/v1/notifications/requests/dismiss", WRITE, empty(), { note: "`{}` (none of the `id[]` exists)" }),
  get("/api/v1/notifications/requests/merged", READ, json({ merged: true }), { note: "`{merged: true}`" }),
  get("/api/v2/notifications/policy", READ, json(defaultNotificationPolicy), {
    note: "NotificationPolicy accepting everything (what the server does), nothing pending",
  }),
  patch("/api/v2/notifications/policy", WRITE, unavailable()),
];
