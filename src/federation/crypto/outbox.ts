import { randomUUID } from "node:crypto";
import { Create } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { RemoteDelivery } from "../../services/crypto/messages.ts";
import { fedifyContext } from "../resolve/accounts.ts";
import { encryptedMessageJson, OLM_CONTEXT } from "./terms.ts";

const logger = getLogger(["gannet", "federation", "crypto"]);

type JsonLd = Record<string, unknown>;
type ToJsonLdOptions = Parameters<Create["toJsonLd"]>[0];

// Fedify's `clone` builds the subclass again from the values it knows; the message is kept beside
// the instance and carried to the clone (Fedify clones the activity to attach its proof).
const messages = new WeakMap<object, JsonLd>();

/**
 * A `Create` whose object is Mastodon's `EncryptedMessage`, which Fedify's vocabulary cannot hold:
 * the activity is built without an object, and its compacted JSON-LD gets the message as its
 * object, with Mastodon's `toot:` terms in the `@context`. Fedify signs what this writes (its
 * integrity proof and HTTP signature are made over it); the delivery skips Fedify's fan-out queue,
 * which would parse the activity again and lose the object.
 */
export class EncryptedMessageCreate extends Create {
  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    const json = await super.toJsonLd(options);
    const message = messages.get(this);
    if (options?.format === "expand" || !message || json === null || typeof json !== "object") return json;
    const node = json as JsonLd;
    if (!("@context" in node)) return { ...node, object: message };
    const context = Array.isArray(node["@context"]) ? node["@context"] : [node["@context"]];
    return { ...node, "@context": [...context, OLM_CONTEXT], object: message };
  }

  override clone(values?: Parameters<Create["clone"]>[0], options?: Parameters<Create["clone"]>[1]): Create {
    const copy = super.clone(values, options);
    const message = messages.get(this);
    if (message) messages.set(copy, message);
    return copy;
  }
}

export function encryptedMessageCreate(values: ConstructorParameters<typeof Create>[0], message: JsonLd): Create {
  const activity = new EncryptedMessageCreate(values);
  messages.set(activity, message);
  return activity;
}

/**
 * The `crypto.deliver-remote` job: one message to one device of a remote account, as Mastodon's
 * DeliverToDeviceService sends it: a `Create` from the sender's actor, addressed to the recipient
 * actor, to its own inbox (its server stores it for the device that inbox's owner has). A sender
 * or recipient gone, suspended or on a server no longer federated with: nothing is sent.
 */
export async function sendEncryptedMessage(app: AppContext, payload: RemoteDelivery): Promise<void> {
  const [sender, target] = await Promise.all([
    app.repos.accounts.getById(payload.accountId),
    app.repos.accounts.getById(payload.targetAccountId),
  ]);
  if (!sender || sender.domain !== null || sender.suspendedAt !== null) return;
  if (!target || target.domain === null || target.suspendedAt !== null || !target.inboxUrl) return;
  if (!(await app.repos.instanceDomainBlocks.isDeliveryAllowed(target.domain))) return;
  const inboxId = URL.parse(target.inboxUrl);
  const targetId = URL.parse(target.uri);
  if (!inboxId || !targetId) return;
  const fctx = await fedifyContext(app);
  const activity = encryptedMessageCreate(
    {
      id: new URL(`${app.config.baseUrl}/payloads/${randomUUID()}`),
      actor: fctx.getActorUri(sender.username),
      to: targetId,
      published: Temporal.Now.instant(),
    },
    encryptedMessageJson({
      fromDeviceId: payload.fromDeviceId,
      targetDeviceId: payload.targetDeviceId,
      type: payload.type,
      body: payload.body,
      digest: payload.digest,
      messageFranking: payload.messageFranking,
    }),
  );
  await fctx.sendActivity({ identifier: sender.username }, { id: targetId, inboxId, endpoints: null }, activity, {
    preferSharedInbox: false,
    fanout: "skip",
  });
  logger.debug("Queued an encrypted message from {sender} to {target}", { sender: sender.uri, target: target.uri });
}
