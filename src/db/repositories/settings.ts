import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

export interface Rule {
  id: string;
  text: string;
  hint: string;
  position: number;
}

/** Site settings (key -> JSON value) and server rules. */
export class SettingsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const r = await this.#db.selectFrom("site_settings").select("value").where("key", "=", key).executeTakeFirst();
    return r ? (JSON.parse(r.value) as T) : undefined;
  }

  async all(): Promise<Record<string, unknown>> {
    const rows = await this.#db.selectFrom("site_settings").select(["key", "value"]).execute();
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
  }

  async set(key: string, value: unknown): Promise<void> {
    const v = JSON.stringify(value);
    const now = new Date().toISOString();
    await this.#db
      .insertInto("site_settings")
      .values({ key, value: v, updated_at: now })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: v, updated_at: now }))
      .execute();
  }

  /** Stores the value unless the key already has one (racing writers keep the first). */
  async setIfAbsent(key: string, value: unknown): Promise<void> {
    await this.#db
      .insertInto("site_settings")
      .values({ key, value: JSON.stringify(value), updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
  }

  async rules(): Promise<Rule[]> {
    const rows = await this.#db.selectFrom("rules").selectAll().orderBy("position").orderBy("id").execute();
    return rows.map((r) => ({ id: String(r.id), text: r.text, hint: r.hint, position: Number(r.position) }));
  }

  async addRule(row: { id: string; text: string; hint: string; position: number; at: string }): Promise<void> {
    await this.#db
      .insertInto("rules")
      .values({
        id: row.id,
        text: row.text,
        hint: row.hint,
        position: row.position,
        created_at: row.at,
        updated_at: row.at,
      })
      .execute();
  }

  async deleteRule(id: string): Promise<boolean> {
    const r = await this.#db.deleteFrom("rules").where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
