import type { Context, Hono } from "hono";
import { ApiError, notFound } from "../../../../lib/errors.ts";
import { accountsJson } from "../../../../services/accounts/views.ts";
import {
  DEFAULT_GROUPED_TYPES,
  type ExpandAccounts,
  groupedNotificationsJson,
} from "../../../../services/notifications/groups.ts";
import {
  clearNotifications,
  dismissNotificationGroup,
  latestOfNotificationGroup,
  notificationGroupAccountsPage,
  unreadNotificationGroupsCount,
} from "../../../../services/notifications/inbox.ts";
import { groupedNotificationsText } from "../../../../services/notifications/kept-text.ts";
import { jsonText } from "../../../json-text.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { pageParams, setLinkHeader } from "../../../pagination.ts";
import { asArray, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { filterOf } from "../../v1/notifications/routes.ts";
import { notificationPolicyRoutes } from "./policy.ts";

const READ = ["read", "read:notifications"];
const WRITE = ["write", "write:notifications"];

/** Group keys: `ungrouped-<id>`, `<type>-<status>-<hour>`, `follow-<hour>`, `admin.sign_up-<hour>` (never `policy`). */
const GROUP_KEY = ":group_key{[a-z._]+-[0-9a-z._-]+}";

/** `grouped_types[]`, Mastodon's default when absent or empty. */
async function groupedTypesOf(c: Context<HonoEnv>): Promise<readonly string[]> {
  const given = asArray((await readParams(c)).grouped_types)?.filter((x): x is string => typeof x === "string");
  return given !== undefined && given.length > 0 ? given : DEFAULT_GROUPED_TYPES;
}

async function expandAccountsOf(c: Context<HonoEnv>): Promise<ExpandAccounts> {
  const v = (await readParams(c)).expand_accounts;
  if (v === undefined || v === "full") return "full";
  if (v === "partial_avatars") return "partial_avatars";
  throw new ApiError(
    400,
    `Invalid value for 'expand_accounts': '${String(v)}', allowed values are 'full' and 'partial_avatars'`,
  );
}

/** 1.4 Grouped notifications (v2, Mastodon 4.3). */
export function groupedNotificationRoutes(app: Hono<HonoEnv>): void {
  notificationPolicyRoutes(app);
  app.get("/api/v2/notifications", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const expandAccounts = await expandAccountsOf(c);
    const groupedTypes = await groupedTypesOf(c);
    const viewerId = currentAccount(c).id;
    const p = await groupedNotificationsText(ctx, viewerId, await filterOf(c), page, groupedTypes, expandAccounts);
    // Mastodon links to the next page whenever this one has groups, full or not.
    setLinkHeader(c, page, p.count === 0 ? 0 : Math.max(p.count, page.limit), p.firstId, p.lastId);
    return jsonText(c, p.body);
  });

  app.get("/api/v2/notifications/unread_count", requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const { limit } = pageParams(c, 100, 1000);
    const viewerId = currentAccount(c).id;
    const count = await unreadNotificationGroupsCount(ctx, viewerId, await filterOf(c), limit, await groupedTypesOf(c));
    return c.json({ count });
  });

  app.post("/api/v2/notifications/clear", requireUser(...WRITE), async (c) => {
    await clearNotifications(c.env.ctx, currentAccount(c).id);
    return c.json({});
  });

  app.get(`/api/v2/notifications/${GROUP_KEY}`, requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const viewerId = currentAccount(c).id;
    const latest = await latestOfNotificationGroup(ctx, viewerId, c.req.param("group_key"));
    if (!latest) throw notFound();
    const json = await groupedNotificationsJson(ctx, [latest], viewerId, {
      groupedTypes: DEFAULT_GROUPED_TYPES,
      expandAccounts: "full",
      paginated: false,
    });
    if ((json.notification_groups as unknown[]).length === 0) throw notFound();
    return c.json(json);
  });

  app.post(`/api/v2/notifications/${GROUP_KEY}/dismiss`, requireUser(...WRITE), async (c) => {
    await dismissNotificationGroup(c.env.ctx, currentAccount(c).id, c.req.param("group_key"));
    return c.json({});
  });

  app.get(`/api/v2/notifications/${GROUP_KEY}/accounts`, requireUser(...READ), async (c) => {
    const ctx = c.env.ctx;
    const page = pageParams(c, 40, 80);
    const viewerId = currentAccount(c).id;
    const { rows, accounts } = await notificationGroupAccountsPage(ctx, viewerId, c.req.param("group_key"), page);
    setLinkHeader(c, page, rows.length, rows[0]?.id, rows.at(-1)?.id);
    return c.json(await accountsJson(ctx, accounts));
  });
}
