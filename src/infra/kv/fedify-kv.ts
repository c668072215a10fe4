import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { KvRepository } from "../../db/repositories/kv.ts";

const encode = (key: KvKey): string => key.map((k) => encodeURIComponent(k)).join("/");
const decode = (s: string): KvKey => s.split("/").map((k) => decodeURIComponent(k)) as unknown as KvKey;

function expiry(options?: KvStoreSetOptions): string | null {
  const ttl = options?.ttl;
  if (!ttl) return null;
  return new Date(Date.now() + ttl.total("millisecond")).toISOString();
}

/** Fedify's KvStore on Gannet's database (SQLite or PostgreSQL), so no extra service is needed. */
export class DatabaseKvStore implements KvStore {
  readonly #repo: KvRepository;
  constructor(repo: KvRepository) {
    this.#repo = repo;
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const v = await this.#repo.get(encode(key), new Date().toISOString());
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await this.#repo.set(encode(key), JSON.stringify(value), expiry(options));
  }

  async delete(key: KvKey): Promise<void> {
    await this.#repo.delete(encode(key));
  }

  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const expected = expectedValue === undefined ? undefined : JSON.stringify(expectedValue);
    return this.#repo.cas(encode(key), expected, JSON.stringify(newValue), expiry(options));
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
