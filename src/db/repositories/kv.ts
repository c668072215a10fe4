import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { selectShaped, writeShaped } from "./query-shapes.ts";

/** Rows of the generic key-value table (Fedify's KvStore and Gannet's own small state). */
export class KvRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async get(key: string, nowIso: string): Promise<string | undefined> {
    return (await this.getWithExpiry(key, nowIso))?.value;
  }

  /** The value under `key` unless it has expired (an expired row is deleted), with its expiry. */
  async getWithExpiry(key: string, nowIso: string): Promise<{ value: string; expiresAt: string | null } | undefined> {
    const [r] = await selectShaped(this.#db, "kv.get", [key], () =>
      this.#db.selectFrom("kv_store").select(["value", "expires_at"]).where("key", "=", key),
    );
    if (!r) return undefined;
    if (r.expires_at !== null && r.expires_at <= nowIso) {
      await this.delete(key);
      return undefined;
    }
    return { value: r.value, expiresAt: r.expires_at };
  }

  async set(key: string, value: string, expiresAt: string | null): Promise<void> {
    await writeShaped(this.#db, "kv.set", [key, value, expiresAt, value, expiresAt], () =>
      this.#db
        .insertInto("kv_store")
        .values({ key, value, expires_at: expiresAt })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value, expires_at: expiresAt })),
    );
  }

  async delete(key: string): Promise<void> {
    await this.#db.deleteFrom("kv_store").where("key", "=", key).execute();
  }

  /**
   * Compare-and-swap. `matches` decides on the stored text (undefined when the key is absent or
   * expired); `value` undefined deletes the key. The write itself is conditional on the text
   * that was read, so of two writers that read the same value only one succeeds (a transaction
   * alone would not guarantee that on PostgreSQL's read committed).
   */
  async cas(
    key: string,
    matches: (stored: string | undefined) => boolean,
    value: string | undefined,
    expiresAt: string | null,
    nowIso: string,
  ): Promise<boolean> {
    const row = await this.#db
      .selectFrom("kv_store")
      .select(["value", "expires_at"])
      .where("key", "=", key)
      .executeTakeFirst();
    const live = row !== undefined && (row.expires_at === null || row.expires_at > nowIso);
    if (!matches(live ? row.value : undefined)) return false;
    if (row === undefined) {
      if (value === undefined) return true;
      const r = await this.#db
        .insertInto("kv_store")
        .values({ key, value, expires_at: expiresAt })
        .onConflict((oc) => oc.column("key").doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    }
    if (value === undefined) {
      const r = await this.#db
        .deleteFrom("kv_store")
        .where("key", "=", key)
        .where("value", "=", row.value)
        .executeTakeFirst();
      // An expired row that vanished meanwhile (purged) leaves the key absent, as asked.
      return Number(r.numDeletedRows) > 0 || !live;
    }
    const r = await this.#db
      .updateTable("kv_store")
      .set({ value, expires_at: expiresAt })
      .where("key", "=", key)
      .where("value", "=", row.value)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async listPrefix(prefix: string, nowIso: string): Promise<{ key: string; value: string }[]> {
    const rows = await this.#db
      .selectFrom("kv_store")
      .select(["key", "value", "expires_at"])
      .where("key", ">=", prefix)
      .where("key", "<", `${prefix}\uffff`)
      .orderBy("key")
      .execute();
    return rows
      .filter((r) => r.expires_at === null || r.expires_at > nowIso)
      .map((r) => ({ key: r.key, value: r.value }));
  }

  async purgeExpired(nowIso: string): Promise<void> {
    await this.#db.deleteFrom("kv_store").where("expires_at", "<=", nowIso).execute();
  }

  /**
   * Takes `key` for `value` unless a live entry holds it (one that expired is taken over); true
   * when taken. Given a transaction, the entry commits or rolls back with the rest of it, and a
   * concurrent claim of the same key waits for that outcome (the row's unique key).
   */
  async claim(key: string, value: string, expiresAt: string, nowIso: string, db: Kysely<DB> = this.#db) {
    const r = await db
      .insertInto("kv_store")
      .values({ key, value, expires_at: expiresAt })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({ value, expires_at: expiresAt }).where("kv_store.expires_at", "<=", nowIso),
      )
      .returning("key")
      .executeTakeFirst();
    return r !== undefined;
  }
}
