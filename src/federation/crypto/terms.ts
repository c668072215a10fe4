/**
 * Mastodon's JSON-LD terms for end-to-end encryption (its `olm` context extension, `toot:`
 * terms), and the JSON shapes it federated: a `Device` in an actor's `devices` collection, the
 * `Curve25519Key` a claim answers, and the `EncryptedMessage` a `Create` carries. Fedify's
 * vocabulary has none of them, so they are written and read here as plain JSON-LD; Mastodon reads
 * them by these names, without a JSON-LD processor. No Fedify import: the API's services use it.
 */
const TOOT = "http://joinmastodon.org/ns#";
const SEC = "https://w3id.org/security#";

export const OLM_CONTEXT = {
  toot: TOOT,
  Device: "toot:Device",
  Ed25519Signature: "toot:Ed25519Signature",
  Ed25519Key: "toot:Ed25519Key",
  Curve25519Key: "toot:Curve25519Key",
  EncryptedMessage: "toot:EncryptedMessage",
  publicKeyBase64: "toot:publicKeyBase64",
  deviceId: "toot:deviceId",
  claim: { "@type": "@id", "@id": "toot:claim" },
  fingerprintKey: { "@type": "@id", "@id": "toot:fingerprintKey" },
  identityKey: { "@type": "@id", "@id": "toot:identityKey" },
  devices: { "@type": "@id", "@id": "toot:devices" },
  messageFranking: "toot:messageFranking",
  messageType: "toot:messageType",
  cipherText: "toot:cipherText",
  // Mastodon took these from the security vocabulary (its `security` context); spelled out here
  // so that they mean the same beside the data-integrity context Fedify writes.
  digest: `${SEC}digest`,
  Digest: `${SEC}Digest`,
  digestAlgorithm: `${SEC}digestAlgorithm`,
  digestValue: `${SEC}digestValue`,
  signatureValue: `${SEC}signatureValue`,
} as const;

export const DEVICES_IRI = `${TOOT}devices`;
export const HMAC_SHA256 = "http://www.w3.org/2000/09/xmldsig#hmac-sha256";

/** A device as the `devices` collection lists it (Mastodon's ActivityPub::DeviceSerializer). */
export function deviceJson(
  d: { deviceId: string; name: string; fingerprintKey: string; identityKey: string },
  claim: string,
) {
  return {
    deviceId: d.deviceId,
    type: "Device",
    name: d.name,
    claim,
    fingerprintKey: { type: "Ed25519Key", publicKeyBase64: d.fingerprintKey },
    identityKey: { type: "Curve25519Key", publicKeyBase64: d.identityKey },
  };
}

/** A claimed one-time key (Mastodon's ActivityPub::OneTimeKeySerializer). */
export function oneTimeKeyJson(k: { keyId: string; key: string; signature: string }) {
  return {
    "@context": ["https://www.w3.org/ns/activitystreams", OLM_CONTEXT],
    keyId: k.keyId,
    type: "Curve25519Key",
    publicKeyBase64: k.key,
    signature: { type: "Ed25519Signature", signatureValue: k.signature },
  };
}

export interface OutgoingMessage {
  fromDeviceId: string;
  targetDeviceId: string;
  type: number;
  body: string;
  digest: string;
  messageFranking: string;
}

/** The object of the `Create` (Mastodon's ActivityPub::EncryptedMessageSerializer). */
export function encryptedMessageJson(m: OutgoingMessage) {
  return {
    type: "EncryptedMessage",
    messageType: m.type,
    cipherText: m.body,
    messageFranking: m.messageFranking,
    attributedTo: { type: "Device", deviceId: m.fromDeviceId },
    to: { type: "Device", deviceId: m.targetDeviceId },
    digest: { type: "Digest", digestAlgorithm: HMAC_SHA256, digestValue: m.digest },
  };
}

/** A string field of a JSON object, or of an object nested in it (`a.b`). */
export function stringAt(json: unknown, ...path: string[]): string | undefined {
  let node = json;
  for (const key of path) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === "string" ? node : undefined;
}
