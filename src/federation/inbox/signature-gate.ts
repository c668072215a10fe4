import { type Federation, type KeyCache, type KvKey, type KvStore, verifyRequestDetailed } from "@fedify/fedify";
import { CryptographicKey, Multikey } from "@fedify/vocab";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";

/** Where Fedify's inbox keeps the public keys it verified with (its `kvPrefixes.publicKey`). */
const KEY_PREFIX = ["_fedify", "publicKey"] as const;

type LoaderOptions = { documentLoader: unknown; contextLoader: unknown };

/**
 * Fedify's inbox key cache, read and written the same way (same KV keys, same JSON-LD form, a
 * key found unavailable remembered for 10 minutes), so that the gate and the inbox behind it
 * fetch and parse a key once between them (key-parse-cache.ts keeps the parse).
 */
function sharedKeyCache(kv: KvStore, options: LoaderOptions): KeyCache {
  const keyOf = (keyId: URL): KvKey => [...KEY_PREFIX, keyId.href];
  return {
    async get(keyId) {
      const serialized = await kv.get(keyOf(keyId));
      if (serialized === undefined) return undefined;
      if (serialized === null) return null;
      const parseOptions = options as Parameters<typeof CryptographicKey.fromJsonLd>[1];
      try {
        return await CryptographicKey.fromJsonLd(serialized, parseOptions);
      } catch {
        try {
          return await Multikey.fromJsonLd(serialized, parseOptions);
        } catch {
          return undefined;
        }
      }
    },
    async set(keyId, key) {
      if (key === null) {
        await kv.set(keyOf(keyId), null, { ttl: Temporal.Duration.from({ minutes: 10 }) });
        return;
      }
      const toJsonLdOptions = options as Parameters<typeof key.toJsonLd>[0];
      await kv.set(keyOf(keyId), await key.toJsonLd(toJsonLdOptions));
    },
  };
}

/** The federation's KvStore (public on Fedify's federation object, not in its interface). */
function kvOf(federation: Federation<AppContext>): KvStore {
  const kv = (federation as unknown as { kv?: KvStore }).kv;
  if (!kv || typeof kv.get !== "function") {
    throw new Error("Fedify's federation object changed: its kv is not where Gannet reads it");
  }
  return kv;
}

/** How often a cached key may be fetched again because a signature failed with it. */
const REFETCH_EVERY_MS = 60_000;
/** Bound on the remembered refetches (the map starts over past it). */
const MAX_REMEMBERED = 10_000;
/** When each key was last fetched again, per KvStore (one per server). */
const refetches = new WeakMap<KvStore, Map<string, number>>();

function mayRefetch(kv: KvStore, keyId: string): boolean {
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

/**
 * The key that signed the request (HTTP Signatures, cavage draft or RFC 9421, its digest
 * included), verified by Fedify's own `verifyRequestDetailed` with the inbox's time window and
 * key cache; null when the signature does not verify or is malformed. The request's body is left
 * unread.
 *
 * When a signature fails with a cached key, Fedify fetches the key again (it may have been
 * rotated) and parses the owner's document as JSON-LD: a millisecond or two, which a flood of
 * forged signatures naming a known key would pay at every request. Here that refetch happens at
 * most once a minute per key (a rotated key is still taken within the minute, and the fetched
 * document is cached for 5 minutes anyway); a refused refetch leaves the cached key in place.
 */
export async function verifiedSigner(
  federation: Federation<AppContext>,
  app: AppContext,
  request: Request,
): Promise<CryptographicKey | null> {
  const ctx = federation.createContext(request, app);
  const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
  const kv = kvOf(federation);
  const shared = sharedKeyCache(kv, loaders);
  let keyWasCached = false;
  let refetchRefused = false;
  const keyCache: KeyCache = {
    async get(keyId) {
      const key = await shared.get(keyId);
      if (key) keyWasCached = true;
      return key;
    },
    async set(keyId, key) {
      if (!refetchRefused) await shared.set(keyId, key);
    },
  };
  const documentLoader: DocumentLoader = (url, options) => {
    if (keyWasCached && !mayRefetch(kv, url)) {
      refetchRefused = true;
      return Promise.reject(new Error(`Key ${url} was fetched again less than a minute ago`));
    }
    return ctx.documentLoader(url, options);
  };
  try {
    const result = await verifyRequestDetailed(request, { ...loaders, documentLoader, keyCache });
    return result.verified ? result.key : null;
  } catch (error) {
    // A signature or digest that is not base64, a date that is not a date: the sender's data
    // (a failed key fetch is a result, not an error). Anything else is ours: a 500, retried.
    if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return null;
    throw error;
  }
}
