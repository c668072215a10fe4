import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { appRoutes } from "./apps.ts";
import { filterRoutes } from "./filters.ts";
import { preferencesRoutes } from "./preferences.ts";
import { profileRoutes } from "./profile.ts";
import { tagRoutes } from "./tags.ts";

/** Settings: profile, preferences, filters, hashtags, authorized apps, development. */
export function settingsRoutes(app: Hono<HonoEnv>): void {
  app.get("/settings", (c) => c.redirect("/settings/profile", 302));
  profileRoutes(app);
  preferencesRoutes(app);
  filterRoutes(app);
  tagRoutes(app);
  appRoutes(app);
}
