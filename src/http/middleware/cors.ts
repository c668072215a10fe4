import type { Context } from "hono";
import type { HonoEnv } from "../types.ts";

const EXPOSED = "Link, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id, Idempotency-Key";
const METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/**
 * CORS for browser clients, as Mastodon configures it (any origin, no credentials). Like
 * rack-cors, headers are added only when the request carries an `Origin`, so other clients pay
 * nothing for it. Returns the answer to a preflight, or undefined to go on.
 */
export function applyCors(c: Context<HonoEnv>): Response | undefined {
  if (c.req.header("origin") === undefined) return undefined;
  if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method") !== undefined) {
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": METHODS,
        "Access-Control-Allow-Headers":
          c.req.header("access-control-request-headers") ?? "Authorization, Content-Type, Idempotency-Key",
        "Access-Control-Max-Age": "86400",
        Vary: "Access-Control-Request-Headers",
      },
    });
  }
  c.header("Access-Control-Allow-Origin", "*");
  c.header("Access-Control-Expose-Headers", EXPOSED);
  return undefined;
}
