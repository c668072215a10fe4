import { CryptographicKey } from "@fedify/vocab";

/**
 * Keeps the parse of a cached public key while the cached JSON lives.
 *
 * Fedify's inbox reads the key of every signature from its key cache on the KvStore and parses it
 * again each time (`CryptographicKey.fromJsonLd`), which imports the PEM into a `CryptoKey`: an
 * ASN.1 parse and an OpenSSL key import, measured at 0.15-0.2 ms of main-thread CPU per incoming
 * activity, the largest single cost of verifying it. Gannet's KvStore hands out the same object
 * for a cached key while it keeps it in memory (infra/kv/fedify-kv.ts, at most 5 minutes, dropped
 * on every write), so the parse is kept on that object (a `WeakMap`, per context loader; a parse
 * given a base URL is not kept): the same JSON with the same loader parses to the same key. Fedify's vocabulary objects are
 * immutable, so sharing one between verifications is safe; a parse that fails is not kept.
 * Installed once per process (`installKeyParseCache`); any other call (an array, another option
 * set) goes to Fedify unchanged.
 */
type FromJsonLd = (json: unknown, options?: Record<string, unknown>) => Promise<CryptographicKey>;

const parsed = new WeakMap<object, Map<unknown, Promise<CryptographicKey>>>();
let installed = false;

export const keyParseStats = { parsed: 0, reused: 0 };

/** What a kept parse depends on: the context loader (undefined, not kept: a base URL is given). */
function optionsKey(options: Record<string, unknown> | undefined): unknown {
  const loader = options?.contextLoader;
  const base = options?.baseUrl;
  if (base === undefined || base === null) return loader;
  return undefined;
}

export function installKeyParseCache(): void {
  if (installed) return;
  installed = true;
  const cls = CryptographicKey as unknown as { fromJsonLd: FromJsonLd };
  const fromJsonLd = cls.fromJsonLd.bind(CryptographicKey);
  cls.fromJsonLd = (json, options) => {
    const key = optionsKey(options);
    if (json === null || typeof json !== "object" || Array.isArray(json) || key === undefined) {
      return fromJsonLd(json, options);
    }
    let byOptions = parsed.get(json);
    const known = byOptions?.get(key);
    if (known) {
      keyParseStats.reused++;
      return known;
    }
    keyParseStats.parsed++;
    const result = fromJsonLd(json, options);
    if (!byOptions) {
      byOptions = new Map();
      parsed.set(json, byOptions);
    }
    const entries = byOptions;
    entries.set(key, result);
    result.catch(() => entries.delete(key));
    return result;
  };
}
