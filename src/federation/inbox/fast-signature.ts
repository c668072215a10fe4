import { hash, KeyObject, timingSafeEqual, verify } from "node:crypto";
import type { Federation, KvKey, KvStore } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";

/**
 * A pre-filter in front of the Fedify-based signature gate (signature-gate.ts), for draft-cavage
 * HTTP signatures (Mastodon's) made with a key Fedify already holds: Fedify's own verification
 * costs 1 to 2 ms of CPU (the digest computed twice, tracing spans, Temporal, the key parsed
 * from its JSON-LD), which a flood of forged signatures naming a known key would pay at every
 * request; node:crypto verifies the same RSA signature in a few hundredths of that.
 *
 * It can only refuse, or spare the gate's duplicate check of what Fedify's inbox verifies anyway:
 * every activity it lets through is verified again by Fedify's inbox before it is accepted. The
 * checks and the signed message are Fedify's (verifyRequestDraft in @fedify/fedify 2.3), so that
 * what it refuses Fedify would refuse too; what it does not understand (RFC 9421, an algorithm
 * other than rsa-sha256 or hs2019, a key it does not hold) goes to the gate as before.
 */

/**
 * Fedify's inbox accepts a Date (and a `created`) this far from now: its `signatureTimeWindow`,
 * which Gannet leaves at Fedify's default (federation.ts); the gate is given the same.
 */
export const SIGNATURE_WINDOW_MS = 60 * 60_000;
/**
 * A held key is used this long, then taken again from Fedify's cache by the gate: the time
 * Fedify's document cache keeps an actor, so a rotated key is not refused for longer.
 */
const KEY_TTL_MS = 5 * 60_000;
/** Keys held per server, the least recently used dropped past it. */
const MAX_KEYS = 10_000;
/** How often a cached key may be fetched again because a signature failed with it. */
const REFETCH_EVERY_MS = 60_000;
/** Bound on the remembered refetches (the map starts over past it). */
const MAX_REMEMBERED = 10_000;

/** Where Fedify's inbox keeps the public keys it verified with (its `kvPrefixes.publicKey`). */
export const KEY_PREFIX = ["_fedify", "publicKey"] as const;
export const keyOf = (keyId: string): KvKey => [...KEY_PREFIX, keyId];

interface HeldKey {
  key: KeyObject;
  ownerId: URL | null;
  /** The entry of Fedify's key cache it was made from: another one there means it was rewritten. */
  source: unknown;
  until: number;
}

/** Per KvStore (one per server; tests run several in a process). */
const heldKeys = new WeakMap<KvStore, Map<string, HeldKey>>();
const refetches = new WeakMap<KvStore, Map<string, number>>();

/** How often each outcome happened (tests and benchmarks read them). */
export const fastSignatureStats = { valid: 0, refused: 0, failed: 0, unknown: 0 };

/** The federation's KvStore (public on Fedify's federation object, not in its interface). */
export function kvOf(federation: Federation<AppContext>): KvStore {
  const kv = (federation as unknown as { kv?: KvStore }).kv;
  if (!kv || typeof kv.get !== "function") {
    throw new Error("Fedify's federation object changed: its kv is not where Gannet reads it");
  }
  return kv;
}

function keysOf(kv: KvStore): Map<string, HeldKey> {
  let keys = heldKeys.get(kv);
  if (!keys) {
    keys = new Map();
    heldKeys.set(kv, keys);
  }
  return keys;
}

/**
 * Holds the key Fedify's key cache has for `keyId` (`source`, the entry there), as the gate read
 * or wrote it. Only RSA keys for RSASSA-PKCS1-v1_5 with SHA-256 are held: Fedify verifies every
 * draft-cavage signature that way.
 */
export function holdKey(kv: KvStore, keyId: string, source: unknown, publicKey: CryptoKey, ownerId: URL | null): void {
  const keys = keysOf(kv);
  const known = keys.get(keyId);
  if (known && known.source === source && known.until > Date.now()) return;
  const algorithm = publicKey.algorithm as { name: string; hash?: { name?: string } };
  if (algorithm.name !== "RSASSA-PKCS1-v1_5" || algorithm.hash?.name !== "SHA-256") {
    keys.delete(keyId);
    return;
  }
  let key: KeyObject;
  try {
    key = KeyObject.from(publicKey);
  } catch {
    keys.delete(keyId);
    return;
  }
  keys.delete(keyId);
  if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value as string);
  keys.set(keyId, { key, ownerId, source, until: Date.now() + KEY_TTL_MS });
}

export function dropKey(kv: KvStore, keyId: string): void {
  heldKeys.get(kv)?.delete(keyId);
}

/** The held key, if it is still the one in Fedify's key cache and not past its time. */
async function heldKey(kv: KvStore, keyId: string): Promise<HeldKey | undefined> {
  const keys = heldKeys.get(kv);
  const held = keys?.get(keyId);
  if (!keys || !held) return undefined;
  // Gannet's KvStore hands out the same object for an entry until it is written (or reread after
  // 5 minutes): a different one means Fedify's cache has another key, or none.
  if (held.until <= Date.now() || (await kv.get(keyOf(keyId))) !== held.source) {
    keys.delete(keyId);
    return undefined;
  }
  // Least recently used first: a key in use moves to the end.
  keys.delete(keyId);
  keys.set(keyId, held);
  return held;
}

/**
 * Whether the key may be fetched again now because a signature failed with its cached copy (it
 * may have been rotated): at most once a minute per key, so that forged signatures naming a known
 * key cannot make every request a fetch and a JSON-LD parse.
 */
export function mayRefetch(kv: KvStore, keyId: string): boolean {
  let times = refetches.get(kv);
  if (!times) {
    times = new Map();
    refetches.set(kv, times);
  }
  const now = Date.now();
  const last = times.get(keyId);
  if (last !== undefined && now - last < REFETCH_EVERY_MS) return false;
  if (times.size >= MAX_REMEMBERED) times.clear();
  times.set(keyId, now);
  return true;
}

/** A draft-cavage signature whose headers pass Fedify's checks, waiting for the body. */
export interface ParsedSignature {
  keyId: string;
  headerNames: string[];
  values: Record<string, string>;
  signature: string;
  /** The Digest header's entries of algorithms Fedify supports: node:crypto name and value. */
  digests: Array<[string, string]>;
}

/** Fedify's supported Digest algorithms, as node:crypto names them. */
const DIGESTS: Record<string, string> = { sha: "sha1", "sha-256": "sha256", "sha-512": "sha512" };
/** The `algorithm` values Fedify verifies as RSASSA-PKCS1-v1_5 with SHA-256 and this filter takes. */
const ALGORITHMS = new Set(["rsa-sha256", "hs2019"]);
const PAIR = /^\s*([A-Za-z]+)=(?:"([^"]*)"|(\d+))\s*$/;

/** Fedify's reading of the Signature header: comma-separated pairs, the malformed ones skipped. */
function signatureValues(header: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const pair of header.split(",")) {
    const m = PAIR.exec(pair);
    if (m) values[m[1] as string] = (m[2] ?? m[3]) as string;
  }
  return values;
}

/** An integer field as Fedify reads it: parseInt without a radix ("0x..." is hexadecimal). */
// biome-ignore lint/correctness/useParseIntRadix: the same reading as Fedify's, whatever the text.
const fedifyInt = (value: string) => Number.parseInt(value);

const outside = (ms: number, now: number) => ms > now + SIGNATURE_WINDOW_MS || ms < now - SIGNATURE_WINDOW_MS;

/**
 * The checks of a POST's draft-cavage signature that need neither the body nor the key, made
 * before the body is read: "refused" when Fedify would refuse it whatever the key (no Date, a
 * Date or `created` outside the window, an expired signature, no Digest, a header list without
 * `(request-target)`, `date` and `digest`...), "unknown" when this filter leaves it to the gate.
 */
export function parseSignature(request: Request): ParsedSignature | "refused" | "unknown" {
  const headers = request.headers;
  if (headers.has("signature-input")) return "unknown";
  const header = headers.get("signature");
  if (header === null) return "unknown";
  const values = signatureValues(header);
  const date = headers.get("date");
  const digest = headers.get("digest");
  if (date === null || digest === null) return "refused";
  const now = Date.now();
  const dateMs = Date.parse(date);
  if (Number.isNaN(dateMs) || outside(dateMs, now)) return "refused";
  const { keyId, headers: listed, signature, expires, created, algorithm } = values;
  if (keyId === undefined || listed === undefined || signature === undefined) return "refused";
  if (expires !== undefined) {
    const seconds = fedifyInt(expires);
    if (!Number.isInteger(seconds) || now > seconds * 1000) return "refused";
  }
  if (created !== undefined) {
    const seconds = fedifyInt(created);
    if (!Number.isInteger(seconds) || outside(seconds * 1000, now)) return "refused";
  }
  const headerNames = listed.split(/\s+/g);
  if (!headerNames.includes("(request-target)") || !headerNames.includes("date") || !headerNames.includes("digest")) {
    return "refused";
  }
  if (algorithm !== undefined && !ALGORITHMS.has(algorithm.toLowerCase())) return "unknown";
  const digests: Array<[string, string]> = [];
  for (const entry of digest.split(",")) {
    // Fedify's split("=", 2): the value up to a second "=" (base64 padding is dropped, as there).
    const [name = "", value = ""] = entry.includes("=") ? entry.split("=", 2) : [entry, ""];
    const hash = DIGESTS[name.trim().toLowerCase()];
    if (hash !== undefined) digests.push([hash, value]);
  }
  if (digests.length === 0) return "refused";
  return { keyId, headerNames, values, signature, digests };
}

/** Every supported digest listed must match the body, as Fedify requires. */
function digestsMatch(parsed: ParsedSignature, body: Uint8Array): boolean {
  for (const [algorithm, value] of parsed.digests) {
    // node:crypto's one-shot hash: no Hash object per request.
    const expected = hash(algorithm, body, "buffer");
    const given = Buffer.from(value, "base64");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  }
  return true;
}

/** The request's path as Fedify signs it (`new URL(url).pathname`), without a URL parse when plain. */
function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return new URL(url).pathname;
  let end = url.length;
  for (const c of "?#") {
    const at = url.indexOf(c, start);
    if (at >= 0 && at < end) end = at;
  }
  const path = url.slice(start, end);
  // Anything a URL parse could rewrite (dot segments, escapes, backslashes, non-ASCII) is parsed.
  return /^[A-Za-z0-9/_~-]*$/.test(path) ? path : new URL(url).pathname;
}

/** The signed message, built as Fedify builds it (verifyRequestDraft). */
function signedMessage(request: Request, parsed: ParsedSignature): string {
  const lines: string[] = [];
  for (const name of parsed.headerNames) {
    let value: string | null;
    if (name === "(request-target)") value = `${request.method.toLowerCase()} ${pathnameOf(request.url)}`;
    else if (name === "(created)") value = parsed.values.created ?? "";
    else if (name === "(expires)") value = parsed.values.expires ?? "";
    else if (name === "host") value = request.headers.get("host") ?? new URL(request.url).host;
    else value = request.headers.get(name);
    lines.push(`${name}: ${value}`);
  }
  return lines.join("\n");
}

export type FastVerdict =
  /** Signed with the held key: the gate's check is spared (Fedify's inbox still verifies). */
  | { verdict: "valid"; ownerId: URL | null }
  /** Fedify would refuse it whatever the key (a digest that does not match). */
  | { verdict: "refused" }
  /** Not signed with the held key: refused, unless the key may have been rotated. */
  | { verdict: "failed"; keyId: string }
  /** No key held for it: the gate decides. */
  | { verdict: "unknown" };

/** The body-and-key half of the check, for a signature `parseSignature` took. */
export async function checkSignature(kv: KvStore, request: Request, parsed: ParsedSignature, body: Uint8Array) {
  const verdict = await judge(kv, request, parsed, body);
  fastSignatureStats[verdict.verdict]++;
  return verdict;
}

async function judge(kv: KvStore, request: Request, parsed: ParsedSignature, body: Uint8Array): Promise<FastVerdict> {
  if (!digestsMatch(parsed, body)) return { verdict: "refused" };
  const held = await heldKey(kv, parsed.keyId);
  if (!held) return { verdict: "unknown" };
  const message = signedMessage(request, parsed);
  const ok = await verifyOffThread(Buffer.from(message), held.key, Buffer.from(parsed.signature, "base64"));
  return ok ? { verdict: "valid", ownerId: held.ownerId } : { verdict: "failed", keyId: parsed.keyId };
}

/**
 * RSASSA-PKCS1-v1_5 with SHA-256, verified by node:crypto in libuv's thread pool (the callback
 * form of `verify`): the RSA arithmetic (about 67 µs for a 4096-bit key, 23-32 µs for 2048 bits)
 * runs beside the main thread instead of on it. A signature that is not one (wrong length, not
 * decodable) is false, as a thrown error was before.
 */
export function verifyOffThread(message: Buffer, key: KeyObject, signature: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      verify("sha256", message, key, signature, (error, ok) => resolve(!error && ok === true));
    } catch {
      resolve(false);
    }
  });
}
