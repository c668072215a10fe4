import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { exportRoutes } from "./export-pages.ts";
import { importRoutes } from "./import-pages.ts";
import { movingRoutes } from "./moving-pages.ts";

/** Import and export, account aliases and moving. */
export function dataRoutes(app: Hono<HonoEnv>): void {
  exportRoutes(app);
  importRoutes(app);
  movingRoutes(app);
}
