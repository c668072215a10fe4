import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** The moderation panel's reports pages (docs/web-admin-reports.md). */
export function adminReportPages(_app: Hono<HonoEnv>): void {}
