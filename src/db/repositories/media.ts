import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { DB, MediaAttachmentsTable } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

export type MediaType = "image" | "gifv" | "video" | "audio" | "unknown";
export type MediaProcessing = "queued" | "in_progress" | "complete" | "failed";

export interface MediaAttachment {
  id: string;
  accountId: string;
  statusId: string | null;
  scheduledStatusId: string | null;
  type: MediaType;
  fileKey: string | null;
  fileContentType: string | null;
  fileSize: number | null;
  smallKey: string | null;
  thumbnailKey: string | null;
  thumbnailContentType: string | null;
  remoteUrl: string | null;
  description: string | null;
  focus: { x: number; y: number } | null;
  blurhash: string | null;
  /** Mastodon's `meta` without `focus`. */
  meta: Record<string, unknown>;
  processing: MediaProcessing;
  createdAt: string;
  updatedAt: string;
}

export type MediaInsert = Insertable<MediaAttachmentsTable>;
export type MediaUpdate = Updateable<Omit<MediaAttachmentsTable, "id" | "account_id" | "created_at">>;

function parseMeta(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export function toMediaAttachment(r: Selectable<MediaAttachmentsTable>): MediaAttachment {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    statusId: r.status_id === null ? null : String(r.status_id),
    scheduledStatusId: r.scheduled_status_id === null ? null : String(r.scheduled_status_id),
    type: r.type as MediaType,
    fileKey: r.file_key,
    fileContentType: r.file_content_type,
    fileSize: r.file_size === null ? null : Number(r.file_size),
    smallKey: r.small_key,
    thumbnailKey: r.thumbnail_key,
    thumbnailContentType: r.thumbnail_content_type,
    remoteUrl: r.remote_url,
    description: r.description,
    focus: r.focus_x === null || r.focus_y === null ? null : { x: Number(r.focus_x), y: Number(r.focus_y) },
    blurhash: r.blurhash,
    meta: parseMeta(r.meta),
    processing: r.processing as MediaProcessing,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** All SQL on `media_attachments`. */
export class MediaRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(row: MediaInsert, db: Kysely<DB> = this.#db): Promise<void> {
    await db.insertInto("media_attachments").values(row).execute();
  }

  async getById(id: string): Promise<MediaAttachment | undefined> {
    const r = await this.#db.selectFrom("media_attachments").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? toMediaAttachment(r) : undefined;
  }

  /** One attachment, only when `accountId` owns it. */
  async getOwned(id: string, accountId: string): Promise<MediaAttachment | undefined> {
    const r = await this.#db
      .selectFrom("media_attachments")
      .selectAll()
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r ? toMediaAttachment(r) : undefined;
  }

  /** The account's attachments among `ids`, in id order (missing or foreign ids are left out). */
  async listOwned(ids: readonly string[], accountId: string): Promise<MediaAttachment[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom("media_attachments")
      .selectAll()
      .where("id", "in", [...ids])
      .where("account_id", "=", accountId)
      .orderBy("id")
      .execute();
    return rows.map(toMediaAttachment);
  }

  /** The attachments of the given statuses, in id order (the order they were uploaded). */
  async listByStatuses(statusIds: readonly string[]): Promise<MediaAttachment[]> {
    if (statusIds.length === 0) return [];
    const rows = await selectShaped(this.#db, `media.listByStatuses ${statusIds.length}`, statusIds, () =>
      this.#db
        .selectFrom("media_attachments")
        .selectAll()
        .where("status_id", "in", [...statusIds])
        .orderBy("id"),
    );
    return rows.map(toMediaAttachment);
  }

  async update(id: string, patch: MediaUpdate): Promise<void> {
    await this.#db.updateTable("media_attachments").set(patch).where("id", "=", id).execute();
  }

  /**
   * Attaches the account's unattached uploads among `ids` to a status; answers how many were
   * attached (fewer than `ids.length` means some were missing, foreign or already attached).
   */
  async attachToStatus(
    ids: readonly string[],
    statusId: string,
    accountId: string,
    db: Kysely<DB> = this.#db,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await db
      .updateTable("media_attachments")
      .set({ status_id: statusId, updated_at: new Date().toISOString() })
      .where("id", "in", [...ids])
      .where("account_id", "=", accountId)
      .where("status_id", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Detaches a status's attachments, except `keepIds` (a status edit that dropped some). */
  async detachFromStatus(statusId: string, keepIds: readonly string[] = []): Promise<number> {
    let q = this.#db
      .updateTable("media_attachments")
      .set({ status_id: null, updated_at: new Date().toISOString() })
      .where("status_id", "=", statusId);
    if (keepIds.length > 0) q = q.where("id", "not in", [...keepIds]);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async delete(id: string): Promise<void> {
    await this.#db.deleteFrom("media_attachments").where("id", "=", id).execute();
  }

  /**
   * Uploads still waiting for background processing (`queued` or `in_progress`) whose row has
   * not changed since `updatedBeforeIso`, among ids from `sinceId` on (a range of the primary key,
   * not a scan of the table).
   */
  async listStalledProcessing(sinceId: string, updatedBeforeIso: string, limit: number): Promise<MediaAttachment[]> {
    const rows = await this.#db
      .selectFrom("media_attachments")
      .selectAll()
      .where("id", ">=", sinceId)
      .where("processing", "in", ["queued", "in_progress"])
      .where("updated_at", "<", updatedBeforeIso)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toMediaAttachment);
  }

  /** Ties the account's unattached uploads among `ids` to a scheduled status (kept until it is published). */
  async attachToScheduledStatus(
    ids: readonly string[],
    scheduledStatusId: string,
    accountId: string,
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    if (ids.length === 0) return;
    await db
      .updateTable("media_attachments")
      .set({ scheduled_status_id: scheduledStatusId, updated_at: new Date().toISOString() })
      .where("id", "in", [...ids])
      .where("account_id", "=", accountId)
      .where("status_id", "is", null)
      .execute();
  }

  /** Unties the uploads of a scheduled status (published or cancelled). */
  async releaseScheduledStatus(scheduledStatusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("media_attachments")
      .set({ scheduled_status_id: null, updated_at: new Date().toISOString() })
      .where("scheduled_status_id", "=", scheduledStatusId)
      .execute();
  }

  /** The uploads of the given scheduled statuses, in id order. */
  async listByScheduledStatuses(ids: readonly string[]): Promise<MediaAttachment[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom("media_attachments")
      .selectAll()
      .where("scheduled_status_id", "in", [...ids])
      .orderBy("id")
      .execute();
    return rows.map(toMediaAttachment);
  }

  /** Uploads never attached to a status (nor to a scheduled one) created before `beforeIso`. */
  async listUnattachedBefore(beforeIso: string, limit: number): Promise<MediaAttachment[]> {
    const rows = await this.#db
      .selectFrom("media_attachments")
      .selectAll()
      .where("status_id", "is", null)
      .where("scheduled_status_id", "is", null)
      .where("remote_url", "is", null)
      .where("created_at", "<", beforeIso)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toMediaAttachment);
  }
}
