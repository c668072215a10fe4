import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { authorizeInteractionRoutes } from "./authorize-interaction.ts";
import { oembedRoutes } from "./oembed.ts";
import { remoteInteractionRoutes } from "./remote-interaction.ts";
import { rssRoutes } from "./rss.ts";

/** RSS feeds, oEmbed and remote interaction (follow, reply, favourite from another server). */
export function feedRoutes(app: Hono<HonoEnv>): void {
  rssRoutes(app);
  oembedRoutes(app);
  remoteInteractionRoutes(app);
  authorizeInteractionRoutes(app);
}
