import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { HonoEnv } from "../types.ts";

function normalise(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip;
}

/**
 * The client's address, worked out on first use (most requests never need it): the peer
 * address, or the last untrusted address of X-Forwarded-For when the peer is a trusted proxy
 * (TRUSTED_PROXY_IP, loopback by default), as Rails does.
 */
export function clientIpOf(c: Context<HonoEnv>): string {
  const known = c.get("clientIp");
  if (known !== undefined) return known;
  const trusted = c.env.ctx.config.trustedProxies;
  let ip = "127.0.0.1";
  try {
    ip = normalise(getConnInfo(c).remote.address ?? ip);
  } catch {
    // Not running on node-server (app.request() in tools): keep loopback.
  }
  if (trusted.includes(ip)) {
    const xff = c.req.header("x-forwarded-for");
    if (xff) {
      const hops = xff
        .split(",")
        .map((s) => normalise(s.trim()))
        .filter(Boolean);
      for (let i = hops.length - 1; i >= 0; i--) {
        ip = hops[i];
        if (!trusted.includes(ip)) break;
      }
    }
  }
  c.set("clientIp", ip);
  return ip;
}

export function isLoopback(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.");
}
