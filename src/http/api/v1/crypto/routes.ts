import type { Hono } from "hono";
import type { HonoEnv } from "../../../types.ts";

/** End-to-end encryption: device keys and encrypted messages, behind the `crypto` scope (issue 17). */
export function cryptoRoutes(_app: Hono<HonoEnv>): void {}
