import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";
import { actionRoutes } from "./action-routes.ts";
import { listRoutes } from "./list-routes.ts";
import { quoteRoutes } from "./quote-routes.ts";
import { statusRoutes as coreRoutes } from "./status-routes.ts";

/** Statuses: posting, reading, threads, actions; account statuses, favourites, bookmarks, tags. */
export function statusRoutes(app: Hono<HonoEnv>): void {
  coreRoutes(app);
  actionRoutes(app);
  listRoutes(app);
  quoteRoutes(app);
}
