import type { Federation } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";

const INBOX_PATH = /^\/(?:users\/[^/]+\/)?inbox\/?$/;

/** The hosts (with port) of the signing keys named in a request's Signature or Signature-Input header. */
function keyHosts(request: Request): string[] {
  const out: string[] = [];
  const headers = [request.headers.get("signature"), request.headers.get("signature-input")];
  for (const h of headers) {
    if (!h) continue;
    for (const m of h.matchAll(/key[iI]d="([^"]+)"/g)) {
      try {
        out.push(new URL(m[1]).host.toLowerCase());
      } catch {
        // Not a URL: Fedify refuses the signature itself.
      }
    }
  }
  return out;
}

function actorHost(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const actor = (body as { actor?: unknown }).actor;
  const id = typeof actor === "string" ? actor : (actor as { id?: unknown } | null)?.id;
  if (typeof id !== "string") return undefined;
  try {
    return new URL(id).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** An inbox POST (personal or shared), which `inboxPrecheck` looks at before Fedify. */
export function isInboxPost(request: Request): boolean {
  return request.method === "POST" && INBOX_PATH.test(new URL(request.url).pathname);
}

type HashtagActivityModule = typeof import("./hashtag-activity.ts");
let hashtagActivityModule: Promise<HashtagActivityModule> | undefined;

/**
 * Runs before Fedify on inbox POSTs (`isInboxPost`), given the body the request carries: an
 * activity whose actor or signing key is of a suspended domain (or, in limited-federation mode,
 * of a domain not allowed) is refused with 403 before anything is verified, so that no key or
 * actor is fetched from such a domain; a featured-tag Add or Remove, which Fedify cannot parse,
 * is handled here (hashtag-activity.ts). null lets the request through (a body that is not JSON
 * is left for Fedify to answer 400).
 */
export async function inboxPrecheck(
  ctx: AppContext,
  request: Request,
  body: string,
  federation: () => Promise<Federation<AppContext>>,
): Promise<Response | null> {
  const hosts = new Set(keyHosts(request));
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const host = actorHost(json);
  if (host) hosts.add(host);
  for (const h of hosts) {
    if (!(await ctx.repos.instanceDomainBlocks.isDeliveryAllowed(h))) {
      return new Response("Forbidden", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
  }
  const type = (json as { type?: unknown } | null)?.type;
  if (type !== "Add" && type !== "Remove") return null;
  // Loaded when first needed, not imported: it brings Fedify's vocabulary, which a server loads
  // only once it federates (this module is on every request's path through the bridge).
  hashtagActivityModule ??= import("./hashtag-activity.ts");
  const { featuredTagActivity } = await hashtagActivityModule;
  return featuredTagActivity(ctx, await federation(), request, json);
}
