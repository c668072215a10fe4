import type { KvKey, KvStore } from "@fedify/fedify";
import { FetchError, SendActivityError, signRequest } from "@fedify/fedify";

/**
 * Sends one of Fedify's queued deliveries (an outbox message: the activity, already compacted and
 * signed once per activity, the inbox, the sender's keys as JWK), in place of Fedify's own outbox
 * worker, which per delivery imported the sender's keys again (an RSA import each time), asked
 * and wrote the key-value store for the inbox server's signature spec, opened OpenTelemetry spans
 * and metrics, and knocked a second time with the other signature spec on any failure, a 500 or a
 * 503 too. Here:
 *
 * - the keys are imported once per process and kept (`KEYS_KEPT`, the oldest forgotten first);
 * - the spec each server took (RFC 9421 or the cavage draft) is kept in memory, read once per
 *   server from the key-value store and written only when it changes: the first knock uses it;
 * - the second knock, with the other spec, comes only when the server refused the first with
 *   400, 401 or 403 (maybe the signature), never on a 5xx, a 404 or 410, or a time-out;
 * - the HTTP signature is Fedify's (`signRequest`), given a no-op tracer.
 *
 * What this path does not handle it hands back (`"fedify"`): a redirect, or a refusal carrying
 * an `Accept-Signature` challenge; the caller then lets Fedify's worker deliver the message as
 * before. Failures are Fedify's errors (`SendActivityError` with the status, `FetchError` for the
 * network), so that retries, circuits and the delivery health read them as they did.
 */

/** The parts of Fedify's `OutboxMessage` this reads. */
export interface OutboxMessage {
  type: "outbox";
  inbox: string;
  activity: unknown;
  activityId?: string;
  keys: readonly { keyId: string; privateKey: JsonWebKey }[];
  headers?: Readonly<Record<string, string>>;
  attempt?: number;
}

export type Spec = "rfc9421" | "draft-cavage-http-signatures-12";

/** What a delivery came to: sent, a failure not retried (404, 410: Fedify's permanent ones), or hand it to Fedify. */
export type SendOutcome = { type: "sent" } | { type: "gone"; error: SendActivityError } | { type: "fedify" };

/** Fedify's first knock on a server whose spec is not known (its `firstKnock` default). */
const FIRST_KNOCK: Spec = "rfc9421";
/** Fedify's permanent failures: the delivery is dropped, not retried. */
const PERMANENT = new Set([404, 410]);
/** Refusals that may mean "not this signature spec". */
const SIGNATURE_REFUSED = new Set([400, 401, 403]);
const KEYS_KEPT = 1000;
const SPECS_KEPT = 10_000;
const ERROR_BODY_BYTES = 1024;

const noopSpan = {
  isRecording: () => false,
  setAttribute: () => noopSpan,
  setAttributes: () => noopSpan,
  setStatus: () => noopSpan,
  addEvent: () => noopSpan,
  end: () => {},
  spanContext: () => ({ traceId: "", spanId: "", traceFlags: 0 }),
};
/** A tracer provider whose spans record nothing: `signRequest` runs its callback and no more. */
const noopTracerProvider = {
  getTracer: () => ({
    startSpan: () => noopSpan,
    startActiveSpan: (_name: string, ...args: unknown[]) => (args.at(-1) as (span: unknown) => unknown)(noopSpan),
  }),
} as unknown as NonNullable<NonNullable<Parameters<typeof signRequest>[3]>["tracerProvider"]>;

/** Imported private keys by their JWK (one entry per sender key; the secret is in memory anyway). */
const keys = new Map<string, Promise<CryptoKey>>();

function rsaKeyOf(message: OutboxMessage): { keyId: URL; jwk: JsonWebKey } | undefined {
  for (const k of message.keys) {
    if (k.privateKey.kty === "RSA") return { keyId: new URL(k.keyId), jwk: k.privateKey };
  }
  return undefined;
}

function importRsa(jwk: JsonWebKey): Promise<CryptoKey> {
  const id = `${jwk.n}\n${jwk.d}`;
  let key = keys.get(id);
  if (key === undefined) {
    key = crypto.subtle.importKey("jwk", jwk, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, true, ["sign"]);
    if (keys.size >= KEYS_KEPT) keys.delete(keys.keys().next().value as string);
    keys.set(id, key);
    key.catch(() => keys.delete(id));
  }
  return key;
}

/** The signature spec each server took, as kept in the key-value store (and here, in memory). */
export class SpecMemory {
  readonly #kv: KvStore;
  readonly #known = new Map<string, Spec | null>();

  constructor(kv: KvStore) {
    this.#kv = kv;
  }

  #key(origin: string): KvKey {
    return ["gannet", "signatureSpec", origin];
  }

  async get(origin: string): Promise<Spec | undefined> {
    let spec = this.#known.get(origin);
    if (spec === undefined) {
      const stored = await this.#kv.get<string>(this.#key(origin));
      spec = stored === "rfc9421" || stored === "draft-cavage-http-signatures-12" ? stored : null;
      this.#remember(origin, spec);
    }
    return spec ?? undefined;
  }

  async set(origin: string, spec: Spec): Promise<void> {
    if (this.#known.get(origin) === spec) return;
    this.#remember(origin, spec);
    await this.#kv.set(this.#key(origin), spec);
  }

  #remember(origin: string, spec: Spec | null): void {
    if (!this.#known.has(origin) && this.#known.size >= SPECS_KEPT) {
      this.#known.delete(this.#known.keys().next().value as string);
    }
    this.#known.set(origin, spec);
  }
}

async function limitedBody(response: Response): Promise<string> {
  try {
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes.subarray(0, ERROR_BODY_BYTES));
    return bytes.length > ERROR_BODY_BYTES ? `${text}… (truncated)` : text;
  } catch {
    return "";
  }
}

async function knock(
  inbox: URL,
  headers: Headers,
  body: ArrayBuffer,
  key: { keyId: URL; privateKey: CryptoKey } | undefined,
  spec: Spec,
): Promise<Response> {
  const request = new Request(inbox, { method: "POST", headers, body });
  const signed = key
    ? await signRequest(request, key.privateKey, key.keyId, { spec, body, tracerProvider: noopTracerProvider })
    : request;
  try {
    return await fetch(signed, { redirect: "manual" });
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError") throw error;
    const failure = new FetchError(inbox, error instanceof Error ? error.message : String(error));
    failure.cause = error;
    throw failure;
  }
}

/**
 * Delivers `message`. Throws `FetchError` (network, time-out) or `SendActivityError` (a status
 * to retry); answers `gone` for a 404 or 410 (not retried), `fedify` for what Fedify should do.
 */
export async function sendOutbox(message: OutboxMessage, specs: SpecMemory): Promise<SendOutcome> {
  const inbox = new URL(message.inbox);
  const rsa = rsaKeyOf(message);
  const key = rsa ? { keyId: rsa.keyId, privateKey: await importRsa(rsa.jwk) } : undefined;
  const headers = new Headers(message.headers);
  headers.set("Content-Type", "application/activity+json");
  const body = new TextEncoder().encode(JSON.stringify(message.activity)).buffer as ArrayBuffer;
  const origin = inbox.origin;
  const known = key ? await specs.get(origin) : undefined;
  let spec = known ?? FIRST_KNOCK;
  let response = await knock(inbox, headers, body, key, spec);
  const unusual = (r: Response) =>
    (r.status >= 300 && r.status < 400 && r.headers.has("Location")) ||
    (r.status >= 400 && r.headers.has("Accept-Signature"));
  if (unusual(response)) {
    await response.body?.cancel();
    return { type: "fedify" };
  }
  if (key && SIGNATURE_REFUSED.has(response.status)) {
    // Refused, maybe for the spec: the other one, as Fedify's double knock.
    await response.body?.cancel();
    spec = spec === "rfc9421" ? "draft-cavage-http-signatures-12" : "rfc9421";
    response = await knock(inbox, headers, body, key, spec);
    if (unusual(response)) {
      await response.body?.cancel();
      return { type: "fedify" };
    }
  }
  if (response.ok) {
    await response.body?.cancel();
    if (key) await specs.set(origin, spec);
    return { type: "sent" };
  }
  const text = await limitedBody(response);
  const error = new SendActivityError(
    inbox,
    response.status,
    `Failed to send activity ${message.activityId} to ${inbox.href} (${response.status} ${response.statusText}):\n${text}`,
    text,
    response.headers,
  );
  // The spec is remembered only once taken: a server failing on everything (500) says nothing of it.
  if (PERMANENT.has(response.status)) return { type: "gone", error };
  throw error;
}
