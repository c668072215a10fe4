import { type Kysely, type Selectable, sql } from "kysely";
import type { BulkImportsTable, DB } from "../schema.ts";

export type BulkImportType = "following" | "blocking" | "muting" | "domain_blocking" | "bookmarks" | "lists";
export type BulkImportState = "unconfirmed" | "scheduled" | "in_progress" | "finished";

/** An uploaded CSV import (Mastodon's BulkImport). */
export interface BulkImport {
  id: string;
  accountId: string;
  type: BulkImportType;
  state: BulkImportState;
  overwrite: boolean;
  likelyMismatched: boolean;
  totalItems: number;
  importedItems: number;
  processedItems: number;
  originalFilename: string;
  createdAt: string;
  finishedAt: string | null;
}

/** The values of one line of an import (as Mastodon's BulkImportRow#data). */
export interface BulkImportRowData {
  acct?: string;
  show_reblogs?: boolean;
  notify?: boolean;
  languages?: string[] | null;
  hide_notifications?: boolean;
  domain?: string;
  uri?: string;
  list_name?: string;
}

export interface BulkImportRow {
  id: string;
  data: BulkImportRowData;
}

const toImport = (r: Selectable<BulkImportsTable>): BulkImport => ({
  id: String(r.id),
  accountId: String(r.account_id),
  type: r.type as BulkImportType,
  state: r.state as BulkImportState,
  overwrite: Boolean(r.overwrite),
  likelyMismatched: Boolean(r.likely_mismatched),
  totalItems: Number(r.total_items),
  importedItems: Number(r.imported_items),
  processedItems: Number(r.processed_items),
  originalFilename: r.original_filename,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});

const toRow = (r: { id: string | number; data: string }): BulkImportRow => {
  let data: BulkImportRowData = {};
  try {
    data = JSON.parse(r.data) as BulkImportRowData;
  } catch {
    // A row that cannot be read counts as failed.
  }
  return { id: String(r.id), data };
};

/** Rows inserted per statement (well under SQLite's and PostgreSQL's parameter limits). */
const INSERT_CHUNK = 500;

/** All SQL on `bulk_imports` and `bulk_import_rows` (migration 0048). */
export class BulkImportsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The import and its rows, in one transaction. */
  async create(
    imp: Omit<BulkImport, "importedItems" | "processedItems" | "finishedAt">,
    rows: { id: string; data: BulkImportRowData }[],
  ): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto("bulk_imports")
        .values({
          id: imp.id,
          account_id: imp.accountId,
          type: imp.type,
          state: imp.state,
          overwrite: imp.overwrite,
          likely_mismatched: imp.likelyMismatched,
          total_items: imp.totalItems,
          original_filename: imp.originalFilename,
          created_at: imp.createdAt,
        })
        .execute();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await trx
          .insertInto("bulk_import_rows")
          .values(
            rows
              .slice(i, i + INSERT_CHUNK)
              .map((r) => ({ id: r.id, bulk_import_id: imp.id, data: JSON.stringify(r.data) })),
          )
          .execute();
      }
    });
  }

  async getById(id: string): Promise<BulkImport | undefined> {
    const r = await this.#db.selectFrom("bulk_imports").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toImport(r);
  }

  async getOwned(accountId: string, id: string): Promise<BulkImport | undefined> {
    const r = await this.#db
      .selectFrom("bulk_imports")
      .selectAll()
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r && toImport(r);
  }

  /** The account's most recent imports, newest first. */
  async recent(accountId: string, limit: number): Promise<BulkImport[]> {
    const rows = await this.#db
      .selectFrom("bulk_imports")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map(toImport);
  }

  /** Moves the import from state `from` to `to`; false when it was not in `from` (confirmed twice, say). */
  async transition(id: string, from: BulkImportState, to: BulkImportState): Promise<boolean> {
    const r = await this.#db
      .updateTable("bulk_imports")
      .set({ state: to })
      .where("id", "=", id)
      .where("state", "=", from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Rows still to do (or failed), in file order, after row `after`. */
  async rowsBatch(importId: string, after: string | undefined, limit: number): Promise<BulkImportRow[]> {
    let q = this.#db.selectFrom("bulk_import_rows").select(["id", "data"]).where("bulk_import_id", "=", importId);
    if (after !== undefined) q = q.where("id", ">", after);
    const rows = await q.orderBy("id", "asc").limit(limit).execute();
    return rows.map(toRow);
  }

  async deleteRows(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#db.deleteFrom("bulk_import_rows").where("id", "in", ids).execute();
  }

  /** Adds to the counters (atomically: concurrent batches add up). */
  async progress(id: string, processed: number, imported: number): Promise<void> {
    if (processed === 0 && imported === 0) return;
    await this.#db
      .updateTable("bulk_imports")
      .set({
        processed_items: sql`processed_items + ${processed}`,
        imported_items: sql`imported_items + ${imported}`,
      })
      .where("id", "=", id)
      .execute();
  }

  async finish(id: string, now: string): Promise<void> {
    await this.#db
      .updateTable("bulk_imports")
      .set({ state: "finished", finished_at: now })
      .where("id", "=", id)
      .where("state", "!=", "finished")
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom("bulk_import_rows").where("bulk_import_id", "=", id).execute();
      await trx.deleteFrom("bulk_imports").where("id", "=", id).execute();
    });
  }

  /** Imports made before `before`, and unconfirmed ones made before `unconfirmedBefore`. */
  async expired(before: string, unconfirmedBefore: string, limit: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("bulk_imports")
      .select("id")
      .where((eb) =>
        eb.or([
          eb("created_at", "<", before),
          eb.and([eb("state", "=", "unconfirmed"), eb("created_at", "<", unconfirmedBefore)]),
        ]),
      )
      .orderBy("id", "asc")
      .limit(limit)
      .execute();
    return rows.map((r) => String(r.id));
  }
}
