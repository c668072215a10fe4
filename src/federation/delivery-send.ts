import { createHash } from "node:crypto";
import type { KvKey, KvStore } from "@fedify/fedify";
import { FetchError, SendActivityError, signRequest } from "@fedify/fedify";
import type { GuardedFetch } from "../lib/net/guarded-fetch.ts";

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
 * - the request goes straight to Gannet's guarded client (the one the global `fetch` is in a
 *   job), without the `Request` objects Fedify and the global `fetch` made on the way;
 * - the cavage draft's signature is made here; RFC 9421's is Fedify's (`signRequest`), given a
 *   no-op tracer.
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

/**
 * The first knock on a server whose spec is not known: the cavage draft, which Mastodon and
 * nearly every server takes (Fedify's default is RFC 9421, which Mastodon servers refused, so the
 * first delivery to each knocked twice), and which is signed here without Fedify's `Request`s.
 */
const FIRST_KNOCK: Spec = "draft-cavage-http-signatures-12";
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

/** Bodies of answers read to their end (up to this) so that the connection is kept for the next delivery. */
const DRAIN_BYTES = 64 * 1024;

/**
 * Reads an answer's body to its end and answers its first `keep` bytes as text. Read to the end so
 * that its connection goes back to the pool: cancelling it closes the connection, and the next
 * delivery to the server paid a DNS lookup and a new connection. A body longer than `DRAIN_BYTES`
 * is cancelled all the same.
 */
async function drain(response: Response, keep = 0): Promise<string> {
  const body = response.body;
  if (!body) return "";
  const reader = body.getReader();
  const kept: Uint8Array[] = [];
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (read < keep) kept.push(value.subarray(0, keep - read));
      read += value.length;
      if (read > DRAIN_BYTES) {
        await reader.cancel();
        break;
      }
    }
  } catch {
    // A connection broken while reading an answer already judged: what was read is kept.
  } finally {
    reader.releaseLock();
  }
  if (keep === 0) return "";
  const text = new TextDecoder().decode(Buffer.concat(kept));
  return read > keep ? `${text}… (truncated)` : text;
}

const encoder = new TextEncoder();

/**
 * The cavage draft's signature (Mastodon's) of a POST of `body` to `inbox`: the headers to send.
 * Made here rather than by Fedify's `signRequest`, which builds three `Request` objects per
 * delivery (most of a delivery's garbage); RFC 9421 still goes through Fedify's.
 */
async function signCavage(
  inbox: URL,
  headers: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  key: { keyId: URL; privateKey: CryptoKey },
): Promise<Record<string, string>> {
  const signed: Record<string, string> = {
    ...headers,
    host: inbox.host,
    date: new Date().toUTCString(),
    digest: `SHA-256=${createHash("sha256").update(body).digest("base64")}`,
  };
  const names = ["(request-target)", "host", "date", "digest", "content-type"];
  const text = [
    `(request-target): post ${inbox.pathname}${inbox.search}`,
    `host: ${signed.host}`,
    `date: ${signed.date}`,
    `digest: ${signed.digest}`,
    `content-type: ${signed["content-type"]}`,
  ].join("\n");
  const signature = Buffer.from(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key.privateKey, encoder.encode(text)));
  signed.signature = `keyId="${key.keyId.href}",algorithm="rsa-sha256",headers="${names.join(" ")}",signature="${signature.toString("base64")}"`;
  return signed;
}

async function knock(
  fetcher: GuardedFetch,
  inbox: URL,
  headers: Record<string, string>,
  body: Uint8Array<ArrayBuffer>,
  key: { keyId: URL; privateKey: CryptoKey } | undefined,
  spec: Spec,
): Promise<Response> {
  let sent: HeadersInit = headers;
  if (key && spec === "draft-cavage-http-signatures-12") {
    sent = await signCavage(inbox, headers, body, key);
  } else if (key) {
    const request = new Request(inbox, { method: "POST", headers, body });
    const buffer = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
    const options = { spec, body: buffer, tracerProvider: noopTracerProvider };
    sent = (await signRequest(request, key.privateKey, key.keyId, options)).headers;
  }
  try {
    return await fetcher(inbox, { method: "POST", headers: sent, body, redirect: "manual" });
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
export async function sendOutbox(
  message: OutboxMessage,
  specs: SpecMemory,
  fetcher: GuardedFetch,
): Promise<SendOutcome> {
  const inbox = new URL(message.inbox);
  const rsa = rsaKeyOf(message);
  const key = rsa ? { keyId: rsa.keyId, privateKey: await importRsa(rsa.jwk) } : undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) headers[name.toLowerCase()] = value;
  headers["content-type"] = "application/activity+json";
  const body = encoder.encode(JSON.stringify(message.activity));
  const origin = inbox.origin;
  const known = key ? await specs.get(origin) : undefined;
  let spec = known ?? FIRST_KNOCK;
  let response = await knock(fetcher, inbox, headers, body, key, spec);
  const unusual = (r: Response) =>
    (r.status >= 300 && r.status < 400 && r.headers.has("Location")) ||
    (r.status >= 400 && r.headers.has("Accept-Signature"));
  if (unusual(response)) {
    await drain(response);
    return { type: "fedify" };
  }
  if (key && SIGNATURE_REFUSED.has(response.status)) {
    // Refused, maybe for the spec: the other one, as Fedify's double knock.
    await drain(response);
    spec = spec === "rfc9421" ? "draft-cavage-http-signatures-12" : "rfc9421";
    response = await knock(fetcher, inbox, headers, body, key, spec);
    if (unusual(response)) {
      await drain(response);
      return { type: "fedify" };
    }
  }
  if (response.ok) {
    await drain(response);
    if (key) await specs.set(origin, spec);
    return { type: "sent" };
  }
  const text = await drain(response, ERROR_BODY_BYTES);
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
