import { isDeepStrictEqual } from "node:util";
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { KvRepository } from "../../db/repositories/kv.ts";

const encode = (key: KvKey): string => key.map((k) => encodeURIComponent(k)).join("/");
const decode = (s: string): KvKey => s.split("/").map((k) => decodeURIComponent(k)) as unknown as KvKey;

type Ttl = NonNullable<KvStoreSetOptions["ttl"]>;

/**
 * A TTL in milliseconds, added up from its fields (the Temporal polyfill's `total` cost 10 µs, on
 * every inbox activity); one with calendar units (weeks and longer) goes to `total`.
 */
export function ttlMilliseconds(ttl: Ttl): number {
  if (ttl.years !== 0 || ttl.months !== 0 || ttl.weeks !== 0) return ttl.total("millisecond");
  return (
    ttl.days * 86_400_000 +
    ttl.hours * 3_600_000 +
    ttl.minutes * 60_000 +
    ttl.seconds * 1000 +
    ttl.milliseconds +
    ttl.microseconds / 1000 +
    ttl.nanoseconds / 1_000_000
  );
}

function expiry(options?: KvStoreSetOptions): string | null {
  const ttl = options?.ttl;
  if (!ttl) return null;
  return new Date(Date.now() + ttlMilliseconds(ttl)).toISOString();
}

/**
 * Entries also kept in this process's memory: the public keys Fedify caches (one read for every
 * signed request that comes in). Another process's change of a key is seen within `MEMORY_TTL_MS`;
 * meanwhile a signature made with a new key fails with the old one and Fedify fetches the key
 * again (through the document cache: an actor's new key once its cached document expired), which
 * writes it here too.
 */
const MEMORY_PREFIXES = [`${encode(["_fedify", "publicKey"])}/`];
const MEMORY_TTL_MS = 5 * 60_000;
const MEMORY_ENTRIES = 10_000;

interface Remembered {
  value: unknown;
  until: number;
}

/**
 * Fedify's KvStore on Gannet's database (SQLite or PostgreSQL), so no extra service is needed.
 * A remembered value is handed out as the same object each time (Fedify only reads it): its
 * JSON-LD expansion is then found in the expansion cache (federation/expansion-cache.ts).
 */
export class DatabaseKvStore implements KvStore {
  readonly #repo: KvRepository;
  readonly #memory = new Map<string, Remembered>();
  /** Grows at every write: a value read before a write finished is not remembered. */
  #writes = 0;
  constructor(repo: KvRepository) {
    this.#repo = repo;
  }

  #remember(encoded: string, value: unknown, expiresAt: string | null): void {
    if (!MEMORY_PREFIXES.some((p) => encoded.startsWith(p))) return;
    if (this.#memory.size >= MEMORY_ENTRIES) this.#memory.clear();
    const until = Math.min(Date.now() + MEMORY_TTL_MS, expiresAt === null ? Infinity : Date.parse(expiresAt));
    this.#memory.set(encoded, { value, until });
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const encoded = encode(key);
    const known = this.#memory.get(encoded);
    if (known !== undefined) {
      if (known.until > Date.now()) return known.value as T;
      this.#memory.delete(encoded);
    }
    const writes = this.#writes;
    const row = await this.#repo.getWithExpiry(encoded, new Date().toISOString());
    if (row === undefined) return undefined;
    const value = JSON.parse(row.value) as T;
    if (writes === this.#writes) this.#remember(encoded, value, row.expiresAt);
    return value;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const encoded = encode(key);
    const expiresAt = expiry(options);
    const text = JSON.stringify(value);
    this.#writes++;
    this.#memory.delete(encoded);
    await this.#repo.set(encoded, text, expiresAt);
    // What is remembered is a copy of what was stored, not the caller's object.
    this.#remember(encoded, JSON.parse(text), expiresAt);
  }

  async delete(key: KvKey): Promise<void> {
    const encoded = encode(key);
    this.#writes++;
    this.#memory.delete(encoded);
    await this.#repo.delete(encoded);
  }

  /**
   * Fedify hands the value it read back as `expectedValue`, an object whose keys may come in
   * another order than the stored JSON's (its circuit breaker rebuilds its state), so values are
   * compared as JSON values, not as text. `newValue` undefined deletes the key, as in Fedify's
   * MemoryKvStore.
   */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const encoded = encode(key);
    this.#writes++;
    this.#memory.delete(encoded);
    const expected = expectedValue === undefined ? undefined : JSON.parse(JSON.stringify(expectedValue));
    const matches = (stored: string | undefined): boolean =>
      stored === undefined || expected === undefined
        ? stored === expected
        : isDeepStrictEqual(JSON.parse(stored), expected);
    const text = newValue === undefined ? undefined : JSON.stringify(newValue);
    return this.#repo.cas(encoded, matches, text, expiry(options), new Date().toISOString());
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const p = prefix && prefix.length > 0 ? `${encode(prefix)}/` : "";
    const exact =
      prefix && prefix.length > 0 ? await this.#repo.get(encode(prefix), new Date().toISOString()) : undefined;
    if (exact !== undefined && prefix) yield { key: prefix, value: JSON.parse(exact) };
    for (const row of await this.#repo.listPrefix(p, new Date().toISOString())) {
      yield { key: decode(row.key), value: JSON.parse(row.value) };
    }
  }
}
