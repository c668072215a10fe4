import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

export interface Marker {
  timeline: string;
  lastReadId: string;
  version: number;
  updatedAt: string;
}

/** All SQL on `markers`. */
export class MarkersRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async list(accountId: string, timelines: readonly string[]): Promise<Marker[]> {
    if (timelines.length === 0) return [];
    // Compiled once per number of timelines: the web client's home page reads the home marker
    // on every request.
    const rows = await selectShaped(this.#db, `markers.list ${timelines.length}`, [accountId, ...timelines], () =>
      this.#db
        .selectFrom("markers")
        .select(["timeline", "last_read_id", "version", "updated_at"])
        .where("account_id", "=", accountId)
        .where("timeline", "in", timelines),
    );
    return rows.map((r) => ({
      timeline: r.timeline,
      lastReadId: String(r.last_read_id),
      version: Number(r.version),
      updatedAt: r.updated_at,
    }));
  }

  /** Creates a marker; false when one appeared meanwhile. */
  async insert(row: { id: string; account_id: string; timeline: string; last_read_id: string; at: string }) {
    const r = await this.#db
      .insertInto("markers")
      .values({
        id: row.id,
        account_id: row.account_id,
        timeline: row.timeline,
        last_read_id: row.last_read_id,
        version: 0,
        created_at: row.at,
        updated_at: row.at,
      })
      .onConflict((oc) => oc.columns(["account_id", "timeline"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Moves a marker if it is still at `version` (optimistic lock); false when it moved meanwhile. */
  async update(accountId: string, timeline: string, lastReadId: string, version: number, at: string) {
    const r = await this.#db
      .updateTable("markers")
      .set({ last_read_id: lastReadId, version: version + 1, updated_at: at })
      .where("account_id", "=", accountId)
      .where("timeline", "=", timeline)
      .where("version", "=", version)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
