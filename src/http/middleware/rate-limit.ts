import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../../lib/errors.ts";
import type { HonoEnv } from "../types.ts";
import { clientIpOf, isLoopback } from "./client-ip.ts";

const FIVE_MIN = 5 * 60 * 1000;

/** Rails-style reset timestamp: ISO 8601 with microseconds. */
const resetHeader = (resetAt: number): string => new Date(resetAt).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

interface Verdict {
  limit: number;
  count: number;
  resetAt: number;
}

function applyHeaders(c: Context<HonoEnv>, v: Verdict): void {
  c.header("X-RateLimit-Limit", String(v.limit));
  c.header("X-RateLimit-Remaining", String(Math.max(0, v.limit - v.count)));
  c.header("X-RateLimit-Reset", resetHeader(v.resetAt));
}

function tooMany(v: Verdict): ApiError {
  return new ApiError(429, "Too many requests", undefined, {
    "X-RateLimit-Limit": String(v.limit),
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Reset": resetHeader(v.resetAt),
    "Retry-After": String(Math.max(1, Math.ceil((v.resetAt - Date.now()) / 1000))),
  });
}

function exempt(c: Context<HonoEnv>): boolean {
  return !c.env.ctx.config.rateLimits.enabled || isLoopback(clientIpOf(c));
}

/**
 * Mastodon's API throttles: 300 requests per 5 minutes per IP without a token, 300 per token and
 * 1,500 per user with one. Loopback clients are exempt (as in Mastodon); RATE_LIMITS=off disables.
 */
export async function checkApiRateLimit(c: Context<HonoEnv>): Promise<void> {
  if (exempt(c)) return;
  const store = c.env.ctx.rateLimits;
  const auth = c.get("auth");
  const verdicts: Verdict[] = [];
  if (auth) {
    const t = await store.hit(`token:${auth.tokenHash}`, FIVE_MIN);
    verdicts.push({ limit: 300, ...t });
    if (auth.user) {
      const u = await store.hit(`user:${auth.user.id}`, FIVE_MIN);
      verdicts.push({ limit: 1500, ...u });
    }
  } else {
    const i = await store.hit(`ip:${clientIpOf(c)}`, FIVE_MIN);
    verdicts.push({ limit: 300, ...i });
  }
  // Headers describe the limit closest to exhaustion.
  const closest = verdicts.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
  if (closest.count > closest.limit) throw tooMany(closest);
  applyHeaders(c, closest);
}

/** An extra throttle on one endpoint, e.g. 5 app registrations per 10 minutes per IP. */
export function throttle(
  name: string,
  limit: number,
  periodMs: number,
  keyBy: "ip" | "user" = "ip",
): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (exempt(c)) return next();
    const user = c.get("auth")?.user;
    const key = keyBy === "user" && user ? `user:${user.id}` : `ip:${clientIpOf(c)}`;
    const v = { limit, ...(await c.env.ctx.rateLimits.hit(`${name}:${key}`, periodMs)) };
    if (v.count > limit) throw tooMany(v);
    applyHeaders(c, v);
    await next();
  };
}
