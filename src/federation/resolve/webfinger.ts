import type { AppContext } from "../../context.ts";
import { fetchBytes, RemoteFetchError } from "../../services/remote/fetch-bytes.ts";

const MAX_JRD_BYTES = 64 * 1024;
const WEBFINGER_TIMEOUT_MS = 10_000;

const ACTIVITY_TYPES = new Set([
  "application/activity+json",
  'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
]);

/**
 * The actor URL WebFinger gives for `username@domain` (RFC 7033, as Mastodon asks it), or
 * undefined. Asked through the guarded client, over https; over http only when this server
 * itself runs without https (LOCAL_HTTPS=false: development and tests on loopback), because
 * Fedify's own WebFinger lookup always asks https.
 */
export async function webfingerActorUrl(app: AppContext, username: string, domain: string): Promise<URL | undefined> {
  const scheme = app.config.localHttps ? "https" : "http";
  const resource = `acct:${username}@${domain}`;
  const url = `${scheme}://${domain}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  let jrd: unknown;
  try {
    const body = await fetchBytes(app, url, {
      maxBytes: MAX_JRD_BYTES,
      timeoutMs: WEBFINGER_TIMEOUT_MS,
      accept: "application/jrd+json, application/json;q=0.9",
    });
    jrd = JSON.parse(new TextDecoder().decode(body.bytes));
  } catch (e) {
    if (e instanceof RemoteFetchError || e instanceof SyntaxError) return undefined;
    throw e;
  }
  const links = (jrd as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return undefined;
  for (const link of links) {
    const { rel, type, href } = (link ?? {}) as Record<string, unknown>;
    if (rel !== "self" || typeof href !== "string" || typeof type !== "string") continue;
    if (!ACTIVITY_TYPES.has(type.replace(/\s*;\s*/g, "; "))) continue;
    try {
      const actor = new URL(href);
      if (actor.protocol === "https:" || actor.protocol === "http:") return actor;
    } catch {
      // not a URL: the next link may be
    }
  }
  return undefined;
}
