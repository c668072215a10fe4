import type { IncomingMessage } from "node:http";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { addressMatcher } from "../../lib/net/address-policy.ts";
import type { HonoEnv } from "../types.ts";

/** TRUSTED_PROXY_IP as a matcher, built once per list (the config's array lives as long as the server). */
const matchers = new WeakMap<readonly string[], (ip: string) => boolean>();
function trustedMatcher(trusted: readonly string[]): (ip: string) => boolean {
  let m = matchers.get(trusted);
  if (m === undefined) {
    m = addressMatcher(trusted);
    matchers.set(trusted, m);
  }
  return m;
}

function normalise(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip;
}

/**
 * The client's address from the peer's address and X-Forwarded-For: the peer, or the last
 * untrusted address of X-Forwarded-For when the peer is a trusted proxy (TRUSTED_PROXY_IP: addresses or ranges,
 * loopback by default), as Rails does. Also used before routing (app.ts's `handlerFor`), where
 * there is no Hono context yet.
 */
export function resolveClientIp(
  peer: string | undefined,
  xff: string | null | undefined,
  trustedList: readonly string[],
): string {
  let ip = normalise(peer ?? "127.0.0.1");
  if (!xff) return ip;
  const trusted = trustedMatcher(trustedList);
  if (trusted(ip)) {
    const hops = xff
      .split(",")
      .map((s) => normalise(s.trim()))
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      ip = hops[i];
      if (!trusted(ip)) break;
    }
  }
  return ip;
}

/**
 * The client's address (`resolveClientIp`) before routing, from node-server's env (`incoming`):
 * the same address `clientIpOf` works out later.
 */
export function clientIpOfRequest(request: Request, env: object | undefined, trusted: string[]): string {
  const peer = (env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
  return resolveClientIp(peer, request.headers.get("x-forwarded-for"), trusted);
}

/** The client's address (`resolveClientIp`), worked out on first use (most requests never need it). */
export function clientIpOf(c: Context<HonoEnv>): string {
  const known = c.get("clientIp");
  if (known !== undefined) return known;
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // Not running on node-server (app.request() in tools): loopback.
  }
  const ip = resolveClientIp(peer, c.req.header("x-forwarded-for"), c.env.ctx.config.trustedProxies);
  c.set("clientIp", ip);
  return ip;
}

export function isLoopback(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.");
}
