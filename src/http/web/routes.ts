import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";
import { publicPageRoutes } from "./public-pages.ts";
import { severedRelationshipRoutes } from "./severed-relationships.ts";

export function webRoutes(app: Hono<HonoEnv>): void {
  publicPageRoutes(app);
  severedRelationshipRoutes(app);
}
