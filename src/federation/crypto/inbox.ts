import { type Federation, type KvKey, verifyRequest } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import { receiveRemoteMessage } from "../../services/crypto/messages.ts";
import { kvOf } from "../inbox/fast-signature.ts";
import { accountForActor } from "../persist/actor.ts";
import { hostOf, sameOrigin } from "../persist/origin.ts";
import { stringAt } from "./terms.ts";

/** Bounds on what a message may carry (an Olm message is a few KB). */
const MAX_BODY = 65_536;
const MAX_FIELD = 4096;
const MAX_DEVICE_ID = 255;

interface IncomingMessage {
  id: string | undefined;
  actor: string;
  objectId: string | undefined;
  fromDeviceId: string;
  targetDeviceId: string;
  type: number;
  body: string;
  digest: string;
  franking: string | undefined;
}

const within = (v: string | undefined, max: number): v is string => v !== undefined && v !== "" && v.length <= max;

function parse(json: unknown): IncomingMessage | undefined {
  const actor = stringAt(json, "actor");
  const object = (json as { object?: unknown }).object;
  const fromDeviceId = stringAt(object, "attributedTo", "deviceId");
  const targetDeviceId = stringAt(object, "to", "deviceId");
  const body = stringAt(object, "cipherText");
  const digest = stringAt(object, "digest", "digestValue");
  const franking = stringAt(object, "messageFranking");
  const type = (object as { messageType?: unknown }).messageType;
  if (!actor || !within(fromDeviceId, MAX_DEVICE_ID) || !within(targetDeviceId, MAX_DEVICE_ID)) return undefined;
  if (
    !within(body, MAX_BODY) ||
    !within(digest, MAX_FIELD) ||
    (franking !== undefined && franking.length > MAX_FIELD)
  ) {
    return undefined;
  }
  if (typeof type !== "number" || !Number.isInteger(type) || type < 0 || type > 2 ** 31 - 1) return undefined;
  return {
    id: stringAt(json, "id"),
    actor,
    objectId: stringAt(object, "id"),
    fromDeviceId,
    targetDeviceId,
    type,
    body,
    digest,
    franking,
  };
}

const INBOX = /^\/users\/([^/]+)\/inbox\/?$/;
/** How long a message's activity id is remembered, so that a delivery retried is stored once. */
const SEEN_TTL = Temporal.Duration.from({ hours: 24 });

/**
 * Mastodon's `Create` of an `EncryptedMessage` is answered here, before Fedify's inbox (whose
 * vocabulary refuses the object as unparseable, 400). As Mastodon, it is taken only on the
 * recipient's own inbox (the shared inbox cannot tell whose device it is for): the request's HTTP
 * signature is verified with Fedify's `verifyRequest`, its key must be the actor's, the actor
 * must be allowed to act here, and an object id must be of the actor's origin; then the
 * ciphertext is stored for the recipient's device it names (dropped when there is none).
 * 202 for anything received, as an inbox answers.
 */
export async function encryptedMessageActivity(
  app: AppContext,
  federation: Federation<AppContext>,
  request: Request,
  json: unknown,
  path: string,
): Promise<Response> {
  const text = (status: number, body: string) =>
    new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const message = parse(json);
  const actor = message && URL.parse(message.actor);
  if (!message || !actor || !/^https?:$/.test(actor.protocol)) return text(400, "Invalid activity.");
  const fctx = federation.createContext(request, app);
  const key = await verifyRequest(request.clone(), {
    documentLoader: fctx.documentLoader,
    contextLoader: fctx.contextLoader,
  }).catch(() => null);
  if (!key || key.ownerId?.href !== actor.href) return text(401, "Failed to verify the request's signature.");
  if (!(await app.repos.instanceDomainBlocks.isDeliveryAllowed(hostOf(actor)))) return text(403, "Forbidden");
  const username = INBOX.exec(path)?.[1];
  if (username === undefined) return text(202, "");
  const objectId = message.objectId === undefined ? undefined : URL.parse(message.objectId);
  if (message.objectId !== undefined && (!objectId || !sameOrigin(objectId, actor))) return text(202, "");
  const sender = await accountForActor(fctx, actor);
  if (!sender || sender.domain === null || sender.suspendedAt !== null) return text(202, "");
  const recipient = await app.repos.accounts.getByUsername(decodeURIComponent(username), null);
  if (!recipient || recipient.suspendedAt !== null) return text(202, "");
  const kv = kvOf(federation);
  // Only an id of the actor's own origin is remembered: another's could shadow a real message.
  const activityId = message.id === undefined ? null : URL.parse(message.id);
  const seen: KvKey | undefined =
    activityId && sameOrigin(activityId, actor) ? ["gannet", "encryptedMessage", activityId.href] : undefined;
  if (seen && (await kv.get(seen)) !== undefined) return text(202, "");
  await receiveRemoteMessage(app, {
    sender,
    recipient,
    fromDeviceId: message.fromDeviceId,
    targetDeviceId: message.targetDeviceId,
    type: message.type,
    body: message.body,
    digest: message.digest,
    originalFranking: message.franking,
  });
  if (seen) await kv.set(seen, true, { ttl: SEEN_TTL });
  return text(202, "");
}
