import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** Translation of statuses and the translation languages (issue 17). */
export function translationRoutes(_app: Hono<HonoEnv>): void {}
