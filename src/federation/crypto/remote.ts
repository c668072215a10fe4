import { signRequest } from "@fedify/fedify";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { DeviceKeys, OneTimeKey } from "../../db/repositories/crypto.ts";
import { isPublicKey, isSignedBy } from "../../services/crypto/key-checks.ts";
import { fedifyContext } from "../resolve/accounts.ts";
import { DEVICES_IRI, stringAt } from "./terms.ts";

const logger = getLogger(["gannet", "federation", "crypto"]);

/** Devices read from one remote collection, at most. */
const MAX_DEVICES = 100;
/** A claimed key's answer is a few hundred bytes. */
const MAX_CLAIM_BYTES = 64 * 1024;
const CLAIM_TIMEOUT_MS = 10_000;
const MAX_FIELD = 1024;

export interface RemoteDevice extends DeviceKeys {
  /** Where one of its one-time keys is claimed (a signed POST); null when it names none. */
  claim: URL | null;
}

const text = (v: string | undefined, max = MAX_FIELD): v is string => v !== undefined && v.length <= max;

/** A URL of the remote account's own origin: an actor cannot send us to claim keys elsewhere. */
function ownUrl(value: unknown, account: Account): URL | null {
  const raw = typeof value === "string" ? value : stringAt(value, "id");
  const url = raw === undefined ? null : URL.parse(raw);
  if (!url || !/^https?:$/.test(url.protocol)) return null;
  return url.origin === new URL(account.uri).origin ? url : null;
}

/** A `Device` of the collection (Mastodon's ActivityPub::DeviceSerializer), checked. */
function parseDevice(item: unknown, account: Account): RemoteDevice | undefined {
  if (item === null || typeof item !== "object" || stringAt(item, "type") !== "Device") return undefined;
  const deviceId = stringAt(item, "deviceId");
  const name = stringAt(item, "name") ?? "";
  const fingerprintKey = stringAt(item, "fingerprintKey", "publicKeyBase64");
  const identityKey = stringAt(item, "identityKey", "publicKeyBase64");
  if (!text(deviceId, 255) || !text(name, 255) || !text(fingerprintKey) || !text(identityKey)) return undefined;
  if (!isPublicKey(fingerprintKey) || !isPublicKey(identityKey)) return undefined;
  const claim = ownUrl((item as { claim?: unknown }).claim, account);
  return { deviceId, name, fingerprintKey, identityKey, claim };
}

/** The actor's `devices` collection URL: Mastodon writes the term, a JSON-LD processor may not. */
function devicesUrlOf(actor: unknown): unknown {
  if (actor === null || typeof actor !== "object") return undefined;
  const a = actor as Record<string, unknown>;
  return a.devices ?? a["toot:devices"] ?? a[DEVICES_IRI];
}

async function load(loader: DocumentLoader, url: URL | string): Promise<unknown> {
  return (await loader(typeof url === "string" ? url : url.href)).document;
}

/**
 * A remote account's devices (Mastodon's Keys::QueryService): its actor's `devices` collection,
 * fetched signed as `viewer` (never from a cache: a device added a minute ago counts). Empty when
 * the account has none, or its server cannot be reached or answers nonsense.
 */
export async function remoteDevices(app: AppContext, viewer: Account, account: Account): Promise<RemoteDevice[]> {
  try {
    const fctx = await fedifyContext(app);
    const loader = await fctx.getDocumentLoader({ identifier: viewer.username });
    const devicesUrl = ownUrl(devicesUrlOf(await load(loader, account.uri)), account);
    if (!devicesUrl) return [];
    const collection = await load(loader, devicesUrl);
    if (collection === null || typeof collection !== "object") return [];
    const c = collection as { items?: unknown; orderedItems?: unknown };
    const raw = c.items ?? c.orderedItems ?? [];
    const items = (Array.isArray(raw) ? raw : [raw]).slice(0, MAX_DEVICES);
    return items.flatMap((item) => parseDevice(item, account) ?? []);
  } catch (error) {
    logger.debug("Querying the devices of {account} failed: {error}", { account: account.uri, error: String(error) });
    return [];
  }
}

/**
 * Claims one of a remote device's one-time keys (Mastodon's Keys::ClaimService): a POST to the
 * device's `claim` URL, HTTP-signed by Fedify with `viewer`'s key. The key answered must be signed
 * by the device's fingerprint key, as an uploaded one must be here. Undefined when there is none.
 */
export async function claimRemoteKey(
  app: AppContext,
  viewer: Account,
  account: Account,
  deviceId: string,
): Promise<OneTimeKey | undefined> {
  const device = (await remoteDevices(app, viewer, account)).find((d) => d.deviceId === deviceId);
  if (!device?.claim) return undefined;
  try {
    const fctx = await fedifyContext(app);
    const pairs = await fctx.getActorKeyPairs(viewer.username);
    const rsa = pairs.find((p) => p.privateKey.algorithm.name === "RSASSA-PKCS1-v1_5");
    if (!rsa) return undefined;
    const unsigned = new Request(device.claim, {
      method: "POST",
      headers: { accept: "application/activity+json", "content-type": "application/activity+json" },
    });
    // Mastodon's draft signature, as Gannet's signed fetches (loader.ts).
    const signed = await signRequest(unsigned, rsa.privateKey, rsa.keyId, { spec: "draft-cavage-http-signatures-12" });
    const response = await app.guardedFetch(device.claim, {
      method: "POST",
      headers: signed.headers,
      redirect: "manual",
      maxBytes: MAX_CLAIM_BYTES,
      timeoutMs: CLAIM_TIMEOUT_MS,
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return undefined;
    }
    const json: unknown = await response.json();
    const keyId = stringAt(json, "keyId") ?? stringAt(json, "id");
    const key = stringAt(json, "publicKeyBase64");
    const signature = stringAt(json, "signature", "signatureValue");
    if (!text(keyId, 255) || !text(key) || !text(signature)) return undefined;
    if (!isPublicKey(key) || !isSignedBy(device.fingerprintKey, key, signature)) return undefined;
    return { keyId, key, signature };
  } catch (error) {
    logger.debug("Claiming a key of {account}:{device} failed: {error}", {
      account: account.uri,
      device: deviceId,
      error: String(error),
    });
    return undefined;
  }
}
