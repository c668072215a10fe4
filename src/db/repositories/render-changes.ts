import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** One logged change (migration 0024): a kind and the id it is about. */
export interface RenderChange {
  seq: number;
  kind: string;
  key: string;
}

/** All SQL on `render_changes`, the log of changes that may make kept JSON stale. */
export class RenderChangesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The newest sequence number (0 when the log is empty). */
  async latest(): Promise<number> {
    const r = await this.#db
      .selectFrom("render_changes")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .executeTakeFirst();
    return Number(r?.seq ?? 0);
  }

  /** Changes after `seq`, oldest first, at most `limit`. */
  async since(seq: number, limit: number): Promise<RenderChange[]> {
    const rows = await this.#db
      .selectFrom("render_changes")
      .select(["seq", "kind", "key"])
      .where("seq", ">", seq)
      .orderBy("seq")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ seq: Number(r.seq), kind: r.kind, key: r.key }));
  }

  /**
   * Deletes all but the newest `keep` changes, `batch` per statement with a turn of the event
   * loop between (a seeded or busy instance may have hundreds of thousands to delete, and on
   * SQLite one long statement would hold every request); answers how many went.
   */
  async trim(keep: number, batch = 2000): Promise<number> {
    const newest = await this.latest();
    let deleted = 0;
    for (;;) {
      const r = await sql`DELETE FROM render_changes WHERE seq IN (
        SELECT seq FROM render_changes WHERE seq <= ${newest - keep} ORDER BY seq LIMIT ${batch})`.execute(this.#db);
      const n = Number(r.numAffectedRows ?? 0);
      deleted += n;
      if (n < batch) return deleted;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}
