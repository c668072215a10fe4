import { type Insertable, type Kysely, type Selectable, sql } from "kysely";
import type { CustomEmojisTable, DB } from "../schema.ts";
import { escapeLike } from "./admin-accounts.ts";

/** A custom emoji row with booleans normalised. */
export interface CustomEmoji {
  id: string;
  shortcode: string;
  /** null for local emojis. */
  domain: string | null;
  imageKey: string | null;
  staticKey: string | null;
  imageContentType: string | null;
  imageFileSize: number | null;
  imageRemoteUrl: string | null;
  uri: string | null;
  category: string | null;
  visibleInPicker: boolean;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type CustomEmojiInsert = Insertable<CustomEmojisTable>;

/** Which emojis a page of the moderation panel lists. */
export interface EmojiListFilter {
  /** local: this server's; remote: other servers'; all. */
  origin: "local" | "remote" | "all";
  /** Part of a shortcode. */
  shortcode?: string;
  /** Exactly this remote domain. */
  domain?: string;
}

/** Shortcodes wanted from one domain (null: local). */
export interface ShortcodeQuery {
  domain: string | null;
  shortcodes: readonly string[];
}

function toEmoji(r: Selectable<CustomEmojisTable>): CustomEmoji {
  return {
    id: String(r.id),
    shortcode: r.shortcode,
    domain: r.domain,
    imageKey: r.image_key,
    staticKey: r.static_key,
    imageContentType: r.image_content_type,
    imageFileSize: r.image_file_size === null ? null : Number(r.image_file_size),
    imageRemoteUrl: r.image_remote_url,
    uri: r.uri,
    category: r.category,
    visibleInPicker: Boolean(r.visible_in_picker),
    disabled: Boolean(r.disabled),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** All SQL on `custom_emojis`. Shortcodes compare case-sensitively, as in Mastodon. */
export class CustomEmojisRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async getLocal(shortcode: string): Promise<CustomEmoji | undefined> {
    const r = await this.#db
      .selectFrom("custom_emojis")
      .selectAll()
      .where("domain", "is", null)
      .where("shortcode", "=", shortcode)
      .executeTakeFirst();
    return r ? toEmoji(r) : undefined;
  }

  /** Every local emoji (the CLI's listing), by category then shortcode. */
  async listLocal(): Promise<CustomEmoji[]> {
    const rows = await this.#db
      .selectFrom("custom_emojis")
      .selectAll()
      .where("domain", "is", null)
      .orderBy("shortcode")
      .execute();
    return rows.map(toEmoji);
  }

  /** What `GET /api/v1/custom_emojis` lists: local, enabled, shown in the picker (Mastodon's `listed`). */
  async listListed(): Promise<CustomEmoji[]> {
    const rows = await this.#db
      .selectFrom("custom_emojis")
      .selectAll()
      .where("domain", "is", null)
      .where("disabled", "=", false)
      .where("visible_in_picker", "=", true)
      .orderBy("shortcode")
      .execute();
    return rows.map(toEmoji);
  }

  /** The enabled emojis among the shortcodes wanted from each domain, in one query. */
  async findEnabled(queries: readonly ShortcodeQuery[]): Promise<CustomEmoji[]> {
    const wanted = queries.filter((q) => q.shortcodes.length > 0);
    if (wanted.length === 0) return [];
    const rows = await this.#db
      .selectFrom("custom_emojis")
      .selectAll()
      .where("disabled", "=", false)
      .where((eb) =>
        eb.or(
          wanted.map((q) =>
            eb.and([
              q.domain === null ? eb("domain", "is", null) : eb("domain", "=", q.domain),
              eb("shortcode", "in", [...q.shortcodes]),
            ]),
          ),
        ),
      )
      .execute();
    return rows.map(toEmoji);
  }

  /** Inserts a row; false when the shortcode is taken in that domain (unique index). */
  async insert(row: CustomEmojiInsert): Promise<boolean> {
    const r = await this.#db
      .insertInto("custom_emojis")
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * Records a remote server's emoji (federation): inserted, or its image URL and `uri` brought up
   * to date. A local emoji is never touched (`domain` is never null here).
   */
  async upsertRemote(row: {
    id: string;
    shortcode: string;
    domain: string;
    imageRemoteUrl: string;
    uri: string | null;
    now: string;
  }): Promise<void> {
    const existing = await this.#db
      .selectFrom("custom_emojis")
      .select(["id", "image_remote_url", "uri"])
      .where("domain", "=", row.domain)
      .where("shortcode", "=", row.shortcode)
      .executeTakeFirst();
    if (existing) {
      if (existing.image_remote_url === row.imageRemoteUrl && existing.uri === row.uri) return;
      await this.#db
        .updateTable("custom_emojis")
        .set({
          image_remote_url: row.imageRemoteUrl,
          uri: row.uri,
          image_key: null,
          static_key: null,
          updated_at: row.now,
        })
        .where("id", "=", existing.id)
        .execute();
      return;
    }
    await this.#db
      .insertInto("custom_emojis")
      .values({
        id: row.id,
        shortcode: row.shortcode,
        domain: row.domain,
        image_remote_url: row.imageRemoteUrl,
        uri: row.uri,
        visible_in_picker: false,
        created_at: row.now,
        updated_at: row.now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async setDisabled(id: string, disabled: boolean, at: string): Promise<void> {
    await this.#db.updateTable("custom_emojis").set({ disabled, updated_at: at }).where("id", "=", id).execute();
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.#db.deleteFrom("custom_emojis").where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** One page of emojis, local first then by domain and shortcode (offset paging). */
  async page(filter: EmojiListFilter, offset: number, limit: number): Promise<CustomEmoji[]> {
    let q = this.#db.selectFrom("custom_emojis").selectAll();
    if (filter.origin === "local") q = q.where("domain", "is", null);
    if (filter.origin === "remote") q = q.where("domain", "is not", null);
    if (filter.domain) q = q.where("domain", "=", filter.domain.toLowerCase());
    if (filter.shortcode) {
      const like = `%${escapeLike(filter.shortcode.toLowerCase())}%`;
      q = q.where(sql<boolean>`lower(shortcode) LIKE ${like} ESCAPE '\\'`);
    }
    const rows = await q
      .orderBy((eb) => eb.case().when("domain", "is", null).then(0).else(1).end())
      .orderBy("domain")
      .orderBy("shortcode")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toEmoji);
  }

  async getById(id: string): Promise<CustomEmoji | undefined> {
    const r = await this.#db.selectFrom("custom_emojis").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toEmoji(r);
  }

  /** The categories local emojis use, sorted. */
  async localCategories(): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("custom_emojis")
      .select("category")
      .distinct()
      .where("domain", "is", null)
      .where("category", "is not", null)
      .execute();
    return rows.flatMap((r) => (r.category ? [r.category] : [])).sort((a, b) => a.localeCompare(b));
  }
}
