import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";
import { announcementPages } from "./announcements.ts";
import { emojiPages } from "./emojis.ts";
import { rolePages } from "./roles.ts";
import { rulePages } from "./rules.ts";
import { settingsPages } from "./settings.ts";
import { trendPages } from "./trends.ts";

/** The moderation panel's server pages (docs/web-admin-server.md). */
export function adminServerPages(app: Hono<HonoEnv>): void {
  settingsPages(app);
  announcementPages(app);
  emojiPages(app);
  rulePages(app);
  rolePages(app);
  trendPages(app);
}
