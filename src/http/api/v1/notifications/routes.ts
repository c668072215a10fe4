import type { Context, Hono } from "hono";
import { notFound } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import {
  clearNotifications,
  dismissNotification,
  type NotificationFilter,
  ownNotification,
  unreadNotificationsCount,
} from "../../../../services/notifications/inbox.ts";
import { notificationsText } from "../../../../services/notifications/kept-text.ts";
import { notificationsJson } from "../../../../services/notifications/views.ts";
import { jsonText } from "../../../json-text.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish } from "../../../validate.ts";
import { notificationRequestRoutes } from "./requests.ts";

const READ = ["read", "read:notifications"];
const WRITE = ["write", "write:notifications"];

const strings = (v: unknown): string[] | undefined => asArray(v)?.filter((x): x is string => typeof x === "string");

/** `types[]`, `exclude_types[]`, `account_id` and `include_filtered` of a list or count. */
export async function filterOf(c: Context<HonoEnv>): Promise<NotificationFilter> {
  const p = await readParams(c);
  const accountId = typeof p.account_id === "string" && isId(p.account_id) ? p.account_id : undefined;
  // Rails truthiness; anything else (a typo, an array) is false, as Mastodon's `truthy_param?`.
  const included = boolish.safeParse(p.include_filtered);
  return {
    types: strings(p.types),
    excludeTypes: strings(p.exclude_types),
    fromAccountId: accountId,
    includeFiltered: included.success && included.data,
  };
}

/** 1.4 Notifications, v1. */
export function notificationRoutes(app: Hono<HonoEnv>): void {
  notificationRequestRoutes(app);
  app.get("/api/v1/notifications", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const viewerId = currentAccount(c).id;
    const p = await notificationsText(ctx, viewerId, await filterOf(c), page);
    setLinkHeader(c, page, p.count, p.firstId, p.lastId);
    return jsonText(c, p.body);
  });

  app.get("/api/v1/notifications/unread_count", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const { limit } = pageParams(c, 100, 1000);
    const viewerId = currentAccount(c).id;
    const count = await unreadNotificationsCount(ctx, viewerId, await filterOf(c), limit);
    return c.json({ count });
  });

  app.post("/api/v1/notifications/clear", requireUser(...WRITE), async (c) => {
    await clearNotifications(c.env.ctx, currentAccount(c).id);
    return c.json({});
  });

  app.get("/api/v1/notifications/:id{[0-9]+}", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const viewerId = currentAccount(c).id;
    // The route takes any digits; past 64 bits PostgreSQL would fail on the bigint column.
    const id = c.req.param("id");
    const n = isId(id) ? await ownNotification(ctx, viewerId, id) : undefined;
    const [json] = n ? await notificationsJson(ctx, [n], viewerId) : [];
    if (!json) throw notFound();
    return c.json(json);
  });

  app.post("/api/v1/notifications/:id{[0-9]+}/dismiss", requireUser(...WRITE), async (c) => {
    const id = c.req.param("id");
    if (!isId(id) || !(await dismissNotification(c.env.ctx, currentAccount(c).id, id))) throw notFound();
    return c.json({});
  });
}
