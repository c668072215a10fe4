import type { Hono } from "hono";
import type { HonoEnv } from "../types.ts";
import { publicPageRoutes } from "./public-pages.ts";

export function webRoutes(app: Hono<HonoEnv>): void {
  publicPageRoutes(app);
}
