import type { Kysely, Selectable } from "kysely";
import type { BackupsTable, DB } from "../schema.ts";

/** An archive of a user's posts and media (Mastodon's Backup). */
export interface Backup {
  id: string;
  userId: string;
  /** The ZIP in the blob store, once built. */
  blobKey: string | null;
  size: number | null;
  processed: boolean;
  createdAt: string;
}

const toBackup = (r: Selectable<BackupsTable>): Backup => ({
  id: String(r.id),
  userId: String(r.user_id),
  blobKey: r.blob_key,
  size: r.size === null ? null : Number(r.size),
  processed: Boolean(r.processed),
  createdAt: r.created_at,
});

/** All SQL on `backups` (migration 0048). */
export class BackupsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * A new backup row for `userId` unless one was made since `since` (in one transaction, so two
   * requests at once make one); undefined when the user must wait.
   */
  async createUnlessRecent(id: string, userId: string, since: string, now: string): Promise<Backup | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      const recent = await trx
        .selectFrom("backups")
        .select("id")
        .where("user_id", "=", userId)
        .where("created_at", ">", since)
        .executeTakeFirst();
      if (recent) return undefined;
      const row = { id, user_id: userId, blob_key: null, size: null, processed: false, created_at: now };
      await trx.insertInto("backups").values(row).execute();
      return { id, userId, blobKey: null, size: null, processed: false, createdAt: now };
    });
  }

  async getById(id: string): Promise<Backup | undefined> {
    const r = await this.#db.selectFrom("backups").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toBackup(r);
  }

  /** The user's backups, newest first. */
  async ofUser(userId: string, limit = 10): Promise<Backup[]> {
    const rows = await this.#db
      .selectFrom("backups")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map(toBackup);
  }

  async markProcessed(id: string, blobKey: string, size: number): Promise<void> {
    await this.#db
      .updateTable("backups")
      .set({ blob_key: blobKey, size, processed: true })
      .where("id", "=", id)
      .execute();
  }

  /** Backups made before `before`, oldest first. */
  async olderThan(before: string, limit: number): Promise<Backup[]> {
    const rows = await this.#db
      .selectFrom("backups")
      .selectAll()
      .where("created_at", "<", before)
      .orderBy("id", "asc")
      .limit(limit)
      .execute();
    return rows.map(toBackup);
  }

  async delete(id: string): Promise<void> {
    await this.#db.deleteFrom("backups").where("id", "=", id).execute();
  }
}
