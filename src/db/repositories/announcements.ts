import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { AnnouncementsTable, DB } from "../schema.ts";

type Db = Kysely<DB> | Transaction<DB>;

export interface Announcement {
  id: string;
  text: string;
  published: boolean;
  allDay: boolean;
  scheduledAt: string | null;
  startsAt: string | null;
  endsAt: string | null;
  publishedAt: string | null;
  statusIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** One reaction of an announcement: a name, how many reacted with it, and whether the viewer did. */
export interface ReactionCount {
  announcementId: string;
  name: string;
  customEmojiId: string | null;
  count: number;
  me: boolean;
}

export interface AnnouncementChanges {
  text?: string;
  allDay?: boolean;
  startsAt?: string | null;
  endsAt?: string | null;
  published?: boolean;
  publishedAt?: string | null;
  scheduledAt?: string | null;
}

function toAnnouncement(r: Selectable<AnnouncementsTable>): Announcement {
  let statusIds: string[] = [];
  if (r.status_ids) {
    const parsed: unknown = JSON.parse(r.status_ids);
    if (Array.isArray(parsed)) statusIds = parsed.map(String);
  }
  return {
    id: String(r.id),
    text: r.text,
    published: Boolean(r.published),
    allDay: Boolean(r.all_day),
    scheduledAt: r.scheduled_at,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    publishedAt: r.published_at,
    statusIds,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Mastodon's order: by start, else scheduled or published time, else creation. */
const CHRONOLOGY = sql`COALESCE(starts_at, scheduled_at, published_at, created_at)`;

/** All SQL on announcements, their dismissals ("mutes") and reactions. */
export class AnnouncementsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(
    row: { id: string; text: string; allDay: boolean; startsAt: string | null; endsAt: string | null },
    published: boolean,
    at: string,
    trx: Db = this.#db,
  ): Promise<void> {
    await trx
      .insertInto("announcements")
      .values({
        id: row.id,
        text: row.text,
        all_day: row.allDay,
        starts_at: row.startsAt,
        ends_at: row.endsAt,
        published,
        published_at: published ? at : null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async update(id: string, changes: AnnouncementChanges, at: string, trx: Db = this.#db): Promise<void> {
    await trx
      .updateTable("announcements")
      .set({
        text: changes.text,
        all_day: changes.allDay,
        starts_at: changes.startsAt,
        ends_at: changes.endsAt,
        published: changes.published,
        published_at: changes.publishedAt,
        scheduled_at: changes.scheduledAt,
        updated_at: at,
      })
      .where("id", "=", id)
      .execute();
  }

  /** Deletes an announcement with its dismissals and reactions; false when there was none. */
  async delete(id: string, trx: Db = this.#db): Promise<boolean> {
    await trx.deleteFrom("announcement_reactions").where("announcement_id", "=", id).execute();
    await trx.deleteFrom("announcement_mutes").where("announcement_id", "=", id).execute();
    const r = await trx.deleteFrom("announcements").where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async get(id: string, trx: Db = this.#db): Promise<Announcement | undefined> {
    const r = await trx.selectFrom("announcements").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toAnnouncement(r);
  }

  async getPublished(id: string): Promise<Announcement | undefined> {
    const a = await this.get(id);
    return a?.published ? a : undefined;
  }

  /** Published announcements, oldest first; without those `accountId` dismissed when given. */
  async listPublished(opts: { notDismissedBy?: string } = {}): Promise<Announcement[]> {
    let q = this.#db.selectFrom("announcements").selectAll().where("published", "=", true);
    const by = opts.notDismissedBy;
    if (by !== undefined) {
      q = q.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("announcement_mutes")
              .select("announcement_mutes.announcement_id")
              .whereRef("announcement_mutes.announcement_id", "=", "announcements.id")
              .where("announcement_mutes.account_id", "=", by),
          ),
        ),
      );
    }
    // A bounded list: announcements are few, written by admins.
    const rows = await q.orderBy(CHRONOLOGY).orderBy("id").limit(200).execute();
    return rows.map(toAnnouncement);
  }

  /** Every announcement, newest first (the command line's list). */
  async listAll(): Promise<Announcement[]> {
    const rows = await this.#db.selectFrom("announcements").selectAll().orderBy(CHRONOLOGY, "desc").execute();
    return rows.map(toAnnouncement);
  }

  async dismissedAmong(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom("announcement_mutes")
      .select("announcement_id")
      .where("account_id", "=", accountId)
      .where("announcement_id", "in", ids)
      .execute();
    return new Set(rows.map((r) => String(r.announcement_id)));
  }

  async dismiss(accountId: string, announcementId: string, at: string): Promise<void> {
    await this.#db
      .insertInto("announcement_mutes")
      .values({ account_id: accountId, announcement_id: announcementId, created_at: at })
      .onConflict((oc) => oc.columns(["account_id", "announcement_id"]).doNothing())
      .execute();
  }

  /**
   * The reactions of these announcements, each announcement's in order of first use (Mastodon's
   * order), with whether `viewerId` reacted so.
   */
  async reactions(ids: readonly string[], viewerId: string | null): Promise<ReactionCount[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom("announcement_reactions")
      .select([
        "announcement_id",
        "name",
        "custom_emoji_id",
        sql<string | number>`count(*)`.as("count"),
        sql<string | number>`sum(CASE WHEN account_id = ${viewerId ?? "0"} THEN 1 ELSE 0 END)`.as("mine"),
      ])
      .where("announcement_id", "in", ids)
      .groupBy(["announcement_id", "name", "custom_emoji_id"])
      .orderBy(sql`min(created_at)`)
      .orderBy(sql`min(id)`)
      .execute();
    return rows.map((r) => ({
      announcementId: String(r.announcement_id),
      name: r.name,
      customEmojiId: r.custom_emoji_id === null ? null : String(r.custom_emoji_id),
      count: Number(r.count),
      me: Number(r.mine) > 0,
    }));
  }

  /** The distinct reaction names an announcement has. */
  async reactionNames(announcementId: string, trx: Db = this.#db): Promise<string[]> {
    const rows = await trx
      .selectFrom("announcement_reactions")
      .select("name")
      .distinct()
      .where("announcement_id", "=", announcementId)
      .execute();
    return rows.map((r) => r.name);
  }

  /** Adds a reaction; false when the account already reacted so. */
  async addReaction(
    row: { id: string; accountId: string; announcementId: string; name: string; customEmojiId: string | null },
    at: string,
    trx: Db = this.#db,
  ): Promise<boolean> {
    const r = await trx
      .insertInto("announcement_reactions")
      .values({
        id: row.id,
        account_id: row.accountId,
        announcement_id: row.announcementId,
        name: row.name,
        custom_emoji_id: row.customEmojiId,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(["account_id", "announcement_id", "name"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Removes the account's reaction; false when it had none. */
  async removeReaction(accountId: string, announcementId: string, name: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("announcement_reactions")
      .where("account_id", "=", accountId)
      .where("announcement_id", "=", announcementId)
      .where("name", "=", name)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
