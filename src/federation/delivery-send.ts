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
  activity?: unknown;
  /** The activity as the JSON text to send, as Gannet's queue keeps it (federation/queue.ts). */
  gannetActivityJson?: string;
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

/** What a knock came to: the status, two headers, the headers whole for an error, the body's start. */
interface Answer {
  status: number;
  statusText: string;
  location: boolean;
  acceptSignature: boolean;
  headers: () => Headers;
  /** The body's first bytes as text (read only when the status is not 2xx). */
  text: string;
}

const encoder = new TextEncoder();

/** The body as sent and its digest (`Digest` header of the cavage draft), made once per delivery. */
interface Body {
  bytes: Buffer<ArrayBuffer>;
  digest: string;
}

/**
 * The cavage draft's signature (Mastodon's) of a POST of `body` to `inbox`: the headers to send.
 * Made here rather than by Fedify's `signRequest`, which builds three `Request` objects per
 * delivery (most of a delivery's garbage); RFC 9421 still goes through Fedify's. The RSA
 * signature itself is made on libuv's thread pool (Web Crypto), not on the main thread.
 */
async function signCavage(
  inbox: URL,
  headers: Record<string, string>,
  body: Body,
  key: { keyId: URL; privateKey: CryptoKey },
): Promise<Record<string, string>> {
  const signed: Record<string, string> = {
    ...headers,
    host: inbox.host,
    date: new Date().toUTCString(),
    digest: body.digest,
  };
  const text = `(request-target): post ${inbox.pathname}${inbox.search}\nhost: ${signed.host}\ndate: ${signed.date}\ndigest: ${signed.digest}\ncontent-type: ${signed["content-type"]}`;
  const signature = Buffer.from(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key.privateKey, encoder.encode(text)));
  signed.signature = `keyId="${key.keyId.href}",algorithm="rsa-sha256",headers="(request-target) host date digest content-type",signature="${signature.toString("base64")}"`;
  return signed;
}

async function signedHeaders(
  inbox: URL,
  headers: Record<string, string>,
  body: Body,
  key: { keyId: URL; privateKey: CryptoKey } | undefined,
  spec: Spec,
): Promise<Record<string, string> | Headers> {
  if (!key) return headers;
  if (spec === "draft-cavage-http-signatures-12") return signCavage(inbox, headers, body, key);
  const bytes = body.bytes;
  const request = new Request(inbox, { method: "POST", headers, body: bytes });
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const options = { spec, body: buffer, tracerProvider: noopTracerProvider };
  return (await signRequest(request, key.privateKey, key.keyId, options)).headers;
}

async function knock(
  fetcher: GuardedFetch,
  inbox: URL,
  headers: Record<string, string>,
  body: Body,
  key: { keyId: URL; privateKey: CryptoKey } | undefined,
  spec: Spec,
): Promise<Answer> {
  const sent = await signedHeaders(inbox, headers, body, key, spec);
  try {
    if (fetcher.post) {
      // The lean path: no Request, Headers, Response or web stream (lib/net/guarded-post.ts).
      const plain: Record<string, string> = {};
      if (sent instanceof Headers) {
        sent.forEach((value, name) => {
          plain[name] = value;
        });
      }
      const a = await fetcher.post(inbox, sent instanceof Headers ? plain : sent, body.bytes, {
        keep: ERROR_BODY_BYTES,
      });
      return {
        status: a.status,
        statusText: a.statusText,
        location: a.headers.location !== undefined,
        acceptSignature: a.headers["accept-signature"] !== undefined,
        headers: () => {
          const h = new Headers();
          for (let i = 0; i + 1 < a.rawHeaders.length; i += 2)
            h.append(a.rawHeaders[i] as string, a.rawHeaders[i + 1] as string);
          return h;
        },
        text: a.status >= 200 && a.status < 300 ? "" : a.text(),
      };
    }
    const response = await fetcher(inbox, { method: "POST", headers: sent, body: body.bytes, redirect: "manual" });
    const text = await drain(response, response.ok ? 0 : ERROR_BODY_BYTES);
    return {
      status: response.status,
      statusText: response.statusText,
      location: response.headers.has("Location"),
      acceptSignature: response.headers.has("Accept-Signature"),
      headers: () => response.headers,
      text,
    };
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
  const bytes = Buffer.from(message.gannetActivityJson ?? JSON.stringify(message.activity)) as Buffer<ArrayBuffer>;
  const body: Body = { bytes, digest: `SHA-256=${createHash("sha256").update(bytes).digest("base64")}` };
  const origin = inbox.origin;
  const known = key ? await specs.get(origin) : undefined;
  let spec = known ?? FIRST_KNOCK;
  let answer = await knock(fetcher, inbox, headers, body, key, spec);
  const unusual = (a: Answer) =>
    (a.status >= 300 && a.status < 400 && a.location) || (a.status >= 400 && a.acceptSignature);
  if (unusual(answer)) return { type: "fedify" };
  if (key && SIGNATURE_REFUSED.has(answer.status)) {
    // Refused, maybe for the spec: the other one, as Fedify's double knock.
    spec = spec === "rfc9421" ? "draft-cavage-http-signatures-12" : "rfc9421";
    answer = await knock(fetcher, inbox, headers, body, key, spec);
    if (unusual(answer)) return { type: "fedify" };
  }
  if (answer.status >= 200 && answer.status < 300) {
    if (key) await specs.set(origin, spec);
    return { type: "sent" };
  }
  const text = answer.text;
  const error = new SendActivityError(
    inbox,
    answer.status,
    `Failed to send activity ${message.activityId} to ${inbox.href} (${answer.status} ${answer.statusText}):\n${text}`,
    text,
    answer.headers(),
  );
  // The spec is remembered only once taken: a server failing on everything (500) says nothing of it.
  if (PERMANENT.has(answer.status)) return { type: "gone", error };
  throw error;
}
