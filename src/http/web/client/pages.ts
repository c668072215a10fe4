import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { accountPage, followListPage } from "./page-account.ts";
import { conversationsPage } from "./page-conversations.ts";
import { notificationsPage } from "./page-notifications.ts";
import { searchPage } from "./page-search.ts";
import { threadPage } from "./page-thread.ts";

/** The web client's pages (docs/web-client-pages.md): notifications, threads, profiles, conversations, search. */
export function clientPageRoutes(app: Hono<HonoEnv>): void {
  app.get("/notifications", notificationsPage);
  app.get("/web/statuses/:id", threadPage);
  app.get("/web/accounts/:id", accountPage);
  app.get("/web/accounts/:id/following", followListPage("following"));
  app.get("/web/accounts/:id/followers", followListPage("followers"));
  app.get("/conversations", conversationsPage);
  app.get("/search", searchPage);
}
