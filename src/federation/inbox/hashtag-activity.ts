import { type Federation, verifyRequest } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";
import { accountForActor } from "../persist/actor.ts";
import { hostOf } from "../persist/origin.ts";
import { applyFeaturedTag } from "./featured.ts";

interface HashtagActivity {
  type: "Add" | "Remove";
  actor: string;
  target: string;
  name: string;
}

/** An Add or Remove of a Hashtag (Mastodon's featured tags), which Fedify's vocabulary cannot parse. */
function asHashtagActivity(json: unknown): HashtagActivity | undefined {
  if (!json || typeof json !== "object") return undefined;
  const j = json as Record<string, unknown>;
  if (j.type !== "Add" && j.type !== "Remove") return undefined;
  const object = j.object as Record<string, unknown> | null;
  if (!object || typeof object !== "object" || object.type !== "Hashtag") return undefined;
  const target = typeof j.target === "string" ? j.target : (j.target as { id?: unknown } | null)?.id;
  if (typeof j.actor !== "string" || typeof target !== "string" || typeof object.name !== "string") return undefined;
  return { type: j.type, actor: j.actor, target, name: object.name };
}

/**
 * Mastodon's featured-tag Add and Remove (object: a Hashtag) are answered here rather than by
 * Fedify's inbox, which refuses them as unparseable (400): the request's HTTP signature is
 * verified with Fedify's `verifyRequest` (cavage or RFC 9421, within the time window), the key
 * must belong to the actor, and the actor must be allowed to act here, before the featured tag is
 * changed. null for every other request.
 */
export async function featuredTagActivity(
  app: AppContext,
  federation: Federation<AppContext>,
  request: Request,
  json: unknown,
): Promise<Response | null> {
  const activity = asHashtagActivity(json);
  if (!activity) return null;
  const text = (status: number, body: string) =>
    new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const fctx = federation.createContext(request, app);
  const key = await verifyRequest(request.clone(), {
    documentLoader: fctx.documentLoader,
    contextLoader: fctx.contextLoader,
  }).catch(() => null);
  if (!key || key.ownerId?.href !== activity.actor) return text(401, "Failed to verify the request's signature.");
  let actor: URL;
  try {
    actor = new URL(activity.actor);
  } catch {
    return text(400, "Invalid activity.");
  }
  if (!(await app.repos.instanceDomainBlocks.isDeliveryAllowed(hostOf(actor)))) return text(403, "Forbidden");
  const sender = await accountForActor(fctx, actor);
  if (!sender || sender.domain === null || sender.suspendedAt !== null) return text(202, "");
  await applyFeaturedTag(app, sender, activity.type, activity.target, activity.name);
  return text(202, "");
}
