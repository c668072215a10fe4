import { type Federation, type KeyCache, type KvKey, type KvStore, verifyRequestDetailed } from "@fedify/fedify";
import { CryptographicKey, Multikey } from "@fedify/vocab";
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

/**
 * The key that signed the request (HTTP Signatures, cavage draft or RFC 9421, its digest
 * included), verified by Fedify's own `verifyRequestDetailed` with the inbox's time window and
 * key cache; null when the signature does not verify. The request's body is left unread.
 */
export async function verifiedSigner(
  federation: Federation<AppContext>,
  app: AppContext,
  request: Request,
): Promise<CryptographicKey | null> {
  const ctx = federation.createContext(request, app);
  const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
  const result = await verifyRequestDetailed(request, {
    ...loaders,
    keyCache: sharedKeyCache(kvOf(federation), loaders),
  });
  return result.verified ? result.key : null;
}
