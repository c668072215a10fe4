import type { Context } from "hono";
import type { HonoEnv } from "./types.ts";

/** A 200 answer whose JSON body is already text (services/statuses/views-text.ts): as `c.json`, without stringifying again. */
export function jsonText(c: Context<HonoEnv>, text: string): Response {
  return c.body(text, 200, { "Content-Type": "application/json" });
}
