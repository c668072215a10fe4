import type { Context } from "hono";
import type { HonoEnv } from "./types.ts";

/**
 * A 200 answer whose JSON body is already made (services/statuses/views-text.ts), as text or
 * UTF-8 bytes: as `c.json`, without stringifying again.
 */
export function jsonText(c: Context<HonoEnv>, body: string | Buffer): Response {
  const data = typeof body === "string" ? body : (body as Uint8Array<ArrayBuffer>);
  return c.body(data, 200, { "Content-Type": "application/json" });
}
