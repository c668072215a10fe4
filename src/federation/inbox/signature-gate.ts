import { type Federation, type KeyCache, type KvStore, verifyRequestDetailed } from "@fedify/fedify";
import { CryptographicKey, Multikey } from "@fedify/vocab";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import { dropKey, holdKey, keyOf, kvOf, mayRefetch, SIGNATURE_WINDOW_MS } from "./fast-signature.ts";

type LoaderOptions = { documentLoader: unknown; contextLoader: unknown };

/** How many verifications the gate handed to Fedify (tests count them). */
export const gateStats = { verifications: 0 };

/**
 * Fedify's inbox key cache, read and written the same way (same KV keys, same JSON-LD form, a
 * key found unavailable remembered for 10 minutes), so that the gate and the inbox behind it
 * fetch and parse a key once between them (key-parse-cache.ts keeps the parse). Every RSA key it
 * reads or writes is also held by the pre-filter (fast-signature.ts), tied to the cache entry it
 * came from, so that the next signature naming it is checked there.
 */
function sharedKeyCache(kv: KvStore, options: LoaderOptions): KeyCache {
  const hold = (keyId: URL, source: unknown, key: CryptographicKey | Multikey) => {
    if (key instanceof CryptographicKey && key.publicKey) holdKey(kv, keyId.href, source, key.publicKey, key.ownerId);
    else dropKey(kv, keyId.href);
  };
  return {
    async get(keyId) {
      const serialized = await kv.get(keyOf(keyId.href));
      if (serialized === undefined) return undefined;
      if (serialized === null) return null;
      const parseOptions = options as Parameters<typeof CryptographicKey.fromJsonLd>[1];
      let key: CryptographicKey | Multikey;
      try {
        key = await CryptographicKey.fromJsonLd(serialized, parseOptions);
      } catch {
        try {
          key = await Multikey.fromJsonLd(serialized, parseOptions);
        } catch {
          return undefined;
        }
      }
      hold(keyId, serialized, key);
      return key;
    },
    async set(keyId, key) {
      if (key === null) {
        dropKey(kv, keyId.href);
        await kv.set(keyOf(keyId.href), null, { ttl: Temporal.Duration.from({ minutes: 10 }) });
        return;
      }
      const toJsonLdOptions = options as Parameters<typeof key.toJsonLd>[0];
      await kv.set(keyOf(keyId.href), await key.toJsonLd(toJsonLdOptions));
      // The entry as the store now hands it out, which the pre-filter compares with.
      hold(keyId, await kv.get(keyOf(keyId.href)), key);
    },
  };
}

/** The inbox's window (Fedify's default `signatureTimeWindow`, which federation.ts keeps). */
const TIME_WINDOW = { milliseconds: SIGNATURE_WINDOW_MS };

/**
 * The key that signed the request (HTTP Signatures, cavage draft or RFC 9421, its digest
 * included), verified by Fedify's own `verifyRequestDetailed` with the inbox's time window and
 * key cache; null when the signature does not verify or is malformed. The request's body is left
 * unread.
 *
 * When a signature fails with a cached key, Fedify fetches the key again (it may have been
 * rotated) and parses the owner's document as JSON-LD: a millisecond or two, which a flood of
 * forged signatures naming a known key would pay at every request. Here that refetch happens at
 * most once a minute per key (`mayRefetch`: a rotated key is still taken within the minute, and
 * the fetched document is cached for 5 minutes anyway); a refused refetch leaves the cached key
 * in place. `refetchGranted`: the pre-filter already took this minute's refetch for the key.
 */
export async function verifiedSigner(
  federation: Federation<AppContext>,
  app: AppContext,
  request: Request,
  opts: { refetchGranted?: boolean } = {},
): Promise<CryptographicKey | null> {
  gateStats.verifications++;
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
    if (keyWasCached && !opts.refetchGranted && !mayRefetch(kv, url)) {
      refetchRefused = true;
      return Promise.reject(new Error(`Key ${url} was fetched again less than a minute ago`));
    }
    return ctx.documentLoader(url, options);
  };
  try {
    const result = await verifyRequestDetailed(request, {
      ...loaders,
      documentLoader,
      keyCache,
      timeWindow: TIME_WINDOW,
    });
    return result.verified ? result.key : null;
  } catch (error) {
    // A signature or digest that is not base64, a date that is not a date: the sender's data
    // (a failed key fetch is a result, not an error). Anything else is ours: a 500, retried.
    if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return null;
    throw error;
  }
}
