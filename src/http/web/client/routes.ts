import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { clientComposeRoutes } from "./compose.ts";
import { clientPageRoutes } from "./pages.ts";
import { clientTimelineRoutes } from "./timelines.ts";

/** The web client (`/home` and friends, docs/web-client.md): a client of the API for signed-in users. */
export function clientRoutes(app: Hono<HonoEnv>): void {
  clientTimelineRoutes(app);
  clientPageRoutes(app);
  clientComposeRoutes(app);
}
