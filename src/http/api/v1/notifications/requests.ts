import type { Context, Hono } from "hono";
import { notFound } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import {
  acceptRequests,
  dismissRequests,
  notificationRequestsJson,
  notificationRequestsPage,
  ownNotificationRequests,
} from "../../../../services/notifications/requests.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

const READ = ["read", "read:notifications"];
const WRITE = ["write", "write:notifications"];
const ID = ":id{[0-9]+}";

/** The caller's request named in the path, or a 404. */
async function ownRequest(c: Context<HonoEnv>) {
  const id = c.req.param("id") ?? "";
  const [r] = isId(id) ? await ownNotificationRequests(c.env.ctx, currentAccount(c).id, [id]) : [];
  if (!r) throw notFound();
  return r;
}

/** The caller's requests among `id[]` (others, and what is not an id, are passed over as Mastodon). */
async function ownRequests(c: Context<HonoEnv>) {
  const ids = (asArray((await readParams(c)).id) ?? []).filter((x): x is string => typeof x === "string" && isId(x));
  return ownNotificationRequests(c.env.ctx, currentAccount(c).id, [...new Set(ids)]);
}

/**
 * 1.4 Notification requests (Mastodon 4.3): the filtered mentions of each sender. Accepting one
 * merges its notifications at once (so `merged` is always true) and lets the sender through from
 * then on; dismissing deletes it and them.
 */
export function notificationRequestRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/notifications/requests", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const viewerId = currentAccount(c).id;
    const rows = await notificationRequestsPage(ctx, viewerId, page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await notificationRequestsJson(ctx, rows, viewerId));
  });

  app.get("/api/v1/notifications/requests/merged", requireUser(...READ), (c) => c.json({ merged: true }));

  app.post("/api/v1/notifications/requests/accept", requireUser(...WRITE), async (c) => {
    await acceptRequests(c.env.ctx, await ownRequests(c));
    return c.json({});
  });

  app.post("/api/v1/notifications/requests/dismiss", requireUser(...WRITE), async (c) => {
    await dismissRequests(c.env.ctx, await ownRequests(c));
    return c.json({});
  });

  app.get(`/api/v1/notifications/requests/${ID}`, requireUser(...READ), async (c) => {
    const [json] = await notificationRequestsJson(c.env.ctx, [await ownRequest(c)], currentAccount(c).id);
    if (!json) throw notFound();
    return c.json(json);
  });

  app.post(`/api/v1/notifications/requests/${ID}/accept`, requireUser(...WRITE), async (c) => {
    await acceptRequests(c.env.ctx, [await ownRequest(c)]);
    return c.json({});
  });

  app.post(`/api/v1/notifications/requests/${ID}/dismiss`, requireUser(...WRITE), async (c) => {
    await dismissRequests(c.env.ctx, [await ownRequest(c)]);
    return c.json({});
  });
}
