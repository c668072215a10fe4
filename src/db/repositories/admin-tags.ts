import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** A hashtag with the moderators' switches (null: not reviewed, which allows). */
export interface AdminTag {
  id: string;
  /** Normalised (lower case, accents folded). */
  name: string;
  displayName: string;
  usable: boolean | null;
  listable: boolean | null;
  trendable: boolean | null;
  reviewedAt: string | null;
  requestedReviewAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a moderator may change on a tag (absent: unchanged). */
export interface AdminTagChanges {
  displayName?: string;
  usable?: boolean | null;
  listable?: boolean | null;
  trendable?: boolean | null;
  reviewedAt: string;
  updatedAt: string;
}

const nullableBool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Boolean(v));

const COLUMNS = [
  "id",
  "name",
  "display_name",
  "usable",
  "listable",
  "trendable",
  "reviewed_at",
  "requested_review_at",
  "created_at",
  "updated_at",
] as const;

function toTag(r: {
  id: string;
  name: string;
  display_name: string;
  usable: unknown;
  listable: unknown;
  trendable: unknown;
  reviewed_at: string | null;
  requested_review_at: string | null;
  created_at: string;
  updated_at: string;
}): AdminTag {
  return {
    id: String(r.id),
    name: r.name,
    displayName: r.display_name,
    usable: nullableBool(r.usable),
    listable: nullableBool(r.listable),
    trendable: nullableBool(r.trendable),
    reviewedAt: r.reviewed_at,
    requestedReviewAt: r.requested_review_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The tags as moderators see and switch them (Mastodon's Admin::TagsController). */
export class AdminTagsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** One page of all tags, newest first. */
  async page(window: IdWindow): Promise<AdminTag[]> {
    const q = applyWindow(this.#db.selectFrom("tags").select(COLUMNS), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toTag));
  }

  async byId(id: string, db: Kysely<DB> = this.#db): Promise<AdminTag | undefined> {
    const r = await db.selectFrom("tags").select(COLUMNS).where("id", "=", id).executeTakeFirst();
    return r && toTag(r);
  }

  /** Tags by id, in no particular order. */
  async byIds(ids: readonly string[]): Promise<AdminTag[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom("tags")
      .select(COLUMNS)
      .where("id", "in", [...ids])
      .execute();
    return rows.map(toTag);
  }

  async update(id: string, changes: AdminTagChanges, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("tags")
      .set({
        ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
        ...(changes.usable !== undefined ? { usable: changes.usable } : {}),
        ...(changes.listable !== undefined ? { listable: changes.listable } : {}),
        ...(changes.trendable !== undefined ? { trendable: changes.trendable } : {}),
        reviewed_at: changes.reviewedAt,
        updated_at: changes.updatedAt,
      })
      .where("id", "=", id)
      .execute();
  }

  /** Of these normalised names, the tags moderators made unusable (their display names). */
  async unusable(names: readonly string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.#db
      .selectFrom("tags")
      .select("display_name")
      .where(sql<string>`lower(name)`, "in", [...names])
      .where("usable", "=", false)
      .orderBy("name")
      .execute();
    return rows.map((r) => r.display_name);
  }
}
