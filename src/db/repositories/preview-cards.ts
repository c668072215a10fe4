import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { DB, PreviewCardsTable } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

/** A preview card as a status shows it (`url` is the link as that status wrote it). */
export interface PreviewCard {
  id: string;
  url: string;
  title: string;
  description: string;
  type: string;
  authorName: string;
  authorUrl: string;
  providerName: string;
  providerUrl: string;
  html: string;
  embedUrl: string;
  language: string | null;
  width: number;
  height: number;
  imageKey: string | null;
  imageRemoteUrl: string | null;
  imageDescription: string;
  blurhash: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type PreviewCardInsert = Insertable<PreviewCardsTable>;
export type PreviewCardUpdate = Updateable<Omit<PreviewCardsTable, "id" | "url" | "created_at">>;

function toPreviewCard(r: Selectable<PreviewCardsTable>, url = r.url): PreviewCard {
  return {
    id: String(r.id),
    url,
    title: r.title,
    description: r.description,
    type: r.type,
    authorName: r.author_name,
    authorUrl: r.author_url,
    providerName: r.provider_name,
    providerUrl: r.provider_url,
    html: r.html,
    embedUrl: r.embed_url,
    language: r.language,
    width: Number(r.width),
    height: Number(r.height),
    imageKey: r.image_key,
    imageRemoteUrl: r.image_remote_url,
    imageDescription: r.image_description,
    blurhash: r.blurhash,
    publishedAt: r.published_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** All SQL on `preview_cards` and `preview_cards_statuses`. */
export class PreviewCardsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async getByUrl(url: string): Promise<PreviewCard | undefined> {
    const r = await this.#db.selectFrom("preview_cards").selectAll().where("url", "=", url).executeTakeFirst();
    return r ? toPreviewCard(r) : undefined;
  }

  async getById(id: string): Promise<PreviewCard | undefined> {
    const r = await this.#db.selectFrom("preview_cards").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? toPreviewCard(r) : undefined;
  }

  /** Inserts a card unless one for its URL exists (two jobs racing); answers the stored one. */
  async insert(row: PreviewCardInsert): Promise<PreviewCard> {
    await this.#db
      .insertInto("preview_cards")
      .values(row)
      .onConflict((oc) => oc.column("url").doNothing())
      .execute();
    const card = await this.getByUrl(row.url);
    if (!card) throw new Error("the new preview card vanished");
    return card;
  }

  /** The cards of `ids` (their own URL), by id. */
  async getByIds(ids: readonly string[]): Promise<Map<string, PreviewCard>> {
    const out = new Map<string, PreviewCard>();
    if (ids.length === 0) return out;
    const rows = await this.#db
      .selectFrom("preview_cards")
      .selectAll()
      .where("id", "in", [...ids])
      .execute();
    for (const r of rows) out.set(String(r.id), toPreviewCard(r));
    return out;
  }

  async update(id: string, patch: PreviewCardUpdate): Promise<void> {
    await this.#db.updateTable("preview_cards").set(patch).where("id", "=", id).execute();
  }

  /** Shows `cardId` on the status (replacing any card it had), with the link as the status wrote it. */
  async link(statusId: string, cardId: string, url: string): Promise<void> {
    const current = await this.#db
      .selectFrom("preview_cards_statuses")
      .select(["preview_card_id", "url"])
      .where("status_id", "=", statusId)
      .executeTakeFirst();
    if (current && String(current.preview_card_id) === cardId && current.url === url) return;
    await this.#db
      .insertInto("preview_cards_statuses")
      .values({ status_id: statusId, preview_card_id: cardId, url })
      .onConflict((oc) => oc.column("status_id").doUpdateSet({ preview_card_id: cardId, url }))
      .execute();
  }

  async unlink(statusId: string): Promise<void> {
    await this.#db.deleteFrom("preview_cards_statuses").where("status_id", "=", statusId).execute();
  }

  /** The link a status's card was made for, if it has one. */
  async linkedUrl(statusId: string): Promise<string | undefined> {
    const r = await this.#db
      .selectFrom("preview_cards_statuses")
      .select("url")
      .where("status_id", "=", statusId)
      .executeTakeFirst();
    return r?.url;
  }

  /** The cards of these statuses, by status id (one query; statuses without a card are absent). */
  async byStatuses(statusIds: readonly string[]): Promise<Map<string, PreviewCard>> {
    const out = new Map<string, PreviewCard>();
    if (statusIds.length === 0) return out;
    const rows = await selectShaped(this.#db, `previewCards.byStatuses ${statusIds.length}`, statusIds, () =>
      this.#db
        .selectFrom("preview_cards_statuses as l")
        .innerJoin("preview_cards as c", "c.id", "l.preview_card_id")
        .selectAll("c")
        .select(["l.status_id as link_status_id", "l.url as link_url"])
        .where("l.status_id", "in", [...statusIds]),
    );
    for (const r of rows) out.set(String(r.link_status_id), toPreviewCard(r, r.link_url));
    return out;
  }

  /** Cards whose image was stored before `beforeIso` (the retention sweep), oldest first. */
  async listImagesStoredBefore(beforeIso: string, limit: number): Promise<PreviewCard[]> {
    const rows = await this.#db
      .selectFrom("preview_cards")
      .selectAll()
      .where("image_key", "is not", null)
      .where("updated_at", "<", beforeIso)
      .orderBy("updated_at")
      .limit(limit)
      .execute();
    return rows.map((r) => toPreviewCard(r));
  }
}
