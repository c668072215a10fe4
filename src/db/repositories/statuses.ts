import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import { hashtagDisplayName, normalizeHashtag } from "../../lib/text/hashtag-name.ts";
import type { DB, StatusesTable } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";
import { selectShaped, writeShaped } from "./query-shapes.ts";
import { type Reader, visibleCondition } from "./status-visibility.ts";

export { applyWindow, idWindowOrder, type Reader, sortDesc, visibleCondition };

export type Visibility = "public" | "unlisted" | "private" | "direct";

/** A status row with booleans and counters normalised. */
export interface Status {
  id: string;
  uri: string;
  url: string | null;
  accountId: string;
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  reblogOfId: string | null;
  conversationId: string | null;
  text: string;
  content: string;
  spoilerText: string;
  visibility: Visibility;
  sensitive: boolean;
  language: string | null;
  local: boolean;
  applicationId: string | null;
  pollId: string | null;
  editedAt: string | null;
  deletedAt: string | null;
  repliesCount: number;
  reblogsCount: number;
  favouritesCount: number;
  /** Accepted quotes of this post. */
  quotesCount: number;
  /** Who may quote it (`{"automatic": [...], "manual": [...]}` as text); null: only its author. */
  quotePolicy: string | null;
  createdAt: string;
  updatedAt: string;
}

const idOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export function toStatus(r: Selectable<StatusesTable>): Status {
  return {
    id: String(r.id),
    uri: r.uri,
    url: r.url,
    accountId: String(r.account_id),
    inReplyToId: idOrNull(r.in_reply_to_id),
    inReplyToAccountId: idOrNull(r.in_reply_to_account_id),
    reblogOfId: idOrNull(r.reblog_of_id),
    conversationId: idOrNull(r.conversation_id),
    text: r.text,
    content: r.content,
    spoilerText: r.spoiler_text,
    visibility: r.visibility as Visibility,
    sensitive: Boolean(r.sensitive),
    language: r.language,
    local: Boolean(r.local),
    applicationId: idOrNull(r.application_id),
    pollId: idOrNull(r.poll_id),
    editedAt: r.edited_at,
    deletedAt: r.deleted_at,
    repliesCount: Number(r.replies_count),
    reblogsCount: Number(r.reblogs_count),
    favouritesCount: Number(r.favourites_count),
    quotesCount: Number(r.quotes_count ?? 0),
    quotePolicy: r.quote_policy ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type StatusInsert = Insertable<StatusesTable>;
export type StatusUpdate = Updateable<StatusesTable>;
type Counter = "replies_count" | "reblogs_count" | "favourites_count";

/** All SQL on `statuses`, `status_edits`, `mentions`, `tags` and `statuses_tags`. */
export class StatusesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(row: StatusInsert, db: Kysely<DB> = this.#db): Promise<void> {
    // Compiled once per set of columns given (a column left undefined is left to its default).
    const columns = Object.keys(row).filter((k) => row[k as keyof StatusInsert] !== undefined);
    const values = columns.map((k) => row[k as keyof StatusInsert]);
    await writeShaped(db, `statuses.insert ${columns.join(",")}`, values, () => db.insertInto("statuses").values(row));
  }

  async update(id: string, patch: StatusUpdate, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("statuses").set(patch).where("id", "=", id).execute();
  }

  /** The status (a tombstone too) at `uri`: statuses are idempotent by URI across deliveries. */
  async getByUri(uri: string, db: Kysely<DB> = this.#db): Promise<Status | undefined> {
    const [r] = await selectShaped(db, "statuses.getByUri", [uri], () =>
      db.selectFrom("statuses").selectAll().where("uri", "=", uri),
    );
    return r && toStatus(r);
  }

  /** Live statuses whose `uri` is among `uris`. */
  async liveByUris(uris: readonly string[]): Promise<Status[]> {
    if (uris.length === 0) return [];
    const rows = await this.#db
      .selectFrom("statuses")
      .selectAll()
      .where("uri", "in", uris)
      .where("deleted_at", "is", null)
      .execute();
    return rows.map(toStatus);
  }

  async getById(id: string, db: Kysely<DB> = this.#db): Promise<Status | undefined> {
    const [r] = await selectShaped(db, "statuses.getById", [id], () =>
      db.selectFrom("statuses").selectAll().where("id", "=", id),
    );
    return r && toStatus(r);
  }

  /** Statuses by id, deleted ones included, in no particular order. */
  async getByIds(ids: readonly string[]): Promise<Status[]> {
    if (ids.length === 0) return [];
    const rows = await selectShaped(this.#db, `statuses.getByIds ${ids.length}`, ids, () =>
      this.#db.selectFrom("statuses").selectAll().where("id", "in", ids),
    );
    return rows.map(toStatus);
  }

  async addToCounter(id: string, counter: Counter, delta: number, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .updateTable("statuses")
      .set({
        [counter]: sql`CASE WHEN ${sql.ref(counter)} + ${delta} < 0 THEN 0 ELSE ${sql.ref(counter)} + ${delta} END`,
      })
      .where("id", "=", id)
      .execute();
  }

  /** Sets `statuses_count` (by `delta`, never below 0) and, when given, `last_status_at` of an account. */
  async addToAccountCount(
    accountId: string,
    delta: number,
    lastStatusAt: string | null,
    db: Kysely<DB>,
  ): Promise<void> {
    const params = lastStatusAt !== null ? [delta, delta, lastStatusAt, accountId] : [delta, delta, accountId];
    await writeShaped(db, `statuses.addToAccountCount ${lastStatusAt !== null}`, params, () => {
      // Built only when this shape is compiled (the first time).
      const patch: Record<string, unknown> = {
        statuses_count: sql`CASE WHEN statuses_count + ${delta} < 0 THEN 0 ELSE statuses_count + ${delta} END`,
      };
      if (lastStatusAt !== null) patch.last_status_at = lastStatusAt;
      return db.updateTable("accounts").set(patch).where("id", "=", accountId);
    });
  }

  /** The live boost of `statusId` by `accountId`, if any. */
  async getReblog(accountId: string, statusId: string, db: Kysely<DB> = this.#db): Promise<Status | undefined> {
    const r = await db
      .selectFrom("statuses")
      .selectAll()
      .where("reblog_of_id", "=", statusId)
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return r && toStatus(r);
  }

  /** Up to `limit` live statuses (posts and boosts) of an account, oldest first (a purge). */
  async liveOf(accountId: string, limit: number): Promise<Status[]> {
    const rows = await this.#db
      .selectFrom("statuses")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toStatus);
  }

  /** Live boosts of a status (to delete with it). */
  async liveReblogsOf(statusId: string, db: Kysely<DB> = this.#db): Promise<Status[]> {
    const rows = await db
      .selectFrom("statuses")
      .selectAll()
      .where("reblog_of_id", "=", statusId)
      .where("deleted_at", "is", null)
      .execute();
    return rows.map(toStatus);
  }

  /** Which of `statusIds` the reader boosted (live boosts). */
  async reblogged(accountId: string, statusIds: readonly string[]): Promise<Set<string>> {
    if (statusIds.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom("statuses")
      .select("reblog_of_id")
      .where("account_id", "=", accountId)
      .where("reblog_of_id", "in", statusIds)
      .where("deleted_at", "is", null)
      .execute();
    return new Set(rows.map((r) => String(r.reblog_of_id)));
  }

  /**
   * Public and unlisted boosts of a status, paginated by the boost's id: [boostId, accountId]. A
   * followers-only boost is left out (as Mastodon does): listing it would show it to anyone.
   */
  async rebloggersPage(statusId: string, window: IdWindow): Promise<{ id: string; accountId: string }[]> {
    let q = this.#db
      .selectFrom("statuses")
      .select(["id", "account_id"])
      .where("reblog_of_id", "=", statusId)
      .where("visibility", "in", ["public", "unlisted"])
      .where("deleted_at", "is", null);
    q = applyWindow(q, "statuses.id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id), accountId: String(r.account_id) })));
  }

  /** Name and website of the applications statuses were posted with. */
  async applicationsOf(ids: readonly string[]): Promise<Map<string, { name: string; website: string | null }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#db
      .selectFrom("oauth_applications")
      .select(["id", "name", "website"])
      .where("id", "in", ids)
      .execute();
    return new Map(rows.map((r) => [String(r.id), { name: r.name, website: r.website || null }]));
  }

  // Mentions

  async insertMentions(
    rows: { id: string; status_id: string; account_id: string; created_at: string; silent?: boolean }[],
    db: Kysely<DB>,
  ) {
    if (rows.length > 0) await db.insertInto("mentions").values(rows).execute();
  }

  async deleteMentions(statusId: string, accountIds: readonly string[], db: Kysely<DB>): Promise<void> {
    if (accountIds.length === 0) return;
    await db.deleteFrom("mentions").where("status_id", "=", statusId).where("account_id", "in", accountIds).execute();
  }

  /** Mentioned account ids per status. */
  async mentionsOf(statusIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (statusIds.length === 0) return out;
    const rows = await selectShaped(this.#db, `statuses.mentionsOf ${statusIds.length}`, statusIds, () =>
      this.#db
        .selectFrom("mentions")
        .select(["status_id", "account_id"])
        .where("status_id", "in", statusIds)
        .orderBy("id"),
    );
    for (const r of rows) {
      const list = out.get(String(r.status_id)) ?? [];
      list.push(String(r.account_id));
      out.set(String(r.status_id), list);
    }
    return out;
  }

  // Tags

  /**
   * The tags of these names (matched by their normalised name, once each), creating the missing
   * ones with `display` as their display name.
   */
  async findOrCreateTags(
    names: readonly { name: string; display: string }[],
    newId: () => string,
    now: string,
    db: Kysely<DB>,
  ) {
    const out: { id: string; name: string }[] = [];
    const seen = new Set<string>();
    for (const given of names) {
      const n = { name: normalizeHashtag(given.name), display: hashtagDisplayName(given.display) };
      if (n.name === "" || seen.has(n.name)) continue;
      seen.add(n.name);
      const existing = await db
        .selectFrom("tags")
        .select(["id", "name"])
        .where(sql<string>`lower(name)`, "=", n.name)
        .executeTakeFirst();
      if (existing) {
        out.push({ id: String(existing.id), name: existing.name });
        continue;
      }
      const id = newId();
      await db
        .insertInto("tags")
        .values({ id, name: n.name, display_name: n.display, created_at: now, updated_at: now })
        .execute();
      out.push({ id, name: n.name });
    }
    return out;
  }

  /** Sets the hashtags of a status (`isNew`: it has none yet, there is nothing to replace). */
  async setStatusTags(
    statusId: string,
    tagIds: readonly string[],
    db: Kysely<DB>,
    opts: { isNew?: boolean } = {},
  ): Promise<void> {
    if (!opts.isNew) await db.deleteFrom("statuses_tags").where("status_id", "=", statusId).execute();
    if (tagIds.length > 0) {
      await db
        .insertInto("statuses_tags")
        .values(tagIds.map((tag_id) => ({ status_id: statusId, tag_id })))
        .execute();
    }
  }

  /** Tags per status: {name, displayName}. */
  async tagsOf(statusIds: readonly string[]): Promise<Map<string, { name: string; displayName: string }[]>> {
    const out = new Map<string, { name: string; displayName: string }[]>();
    if (statusIds.length === 0) return out;
    const rows = await selectShaped(this.#db, `statuses.tagsOf ${statusIds.length}`, statusIds, () =>
      this.#db
        .selectFrom("statuses_tags")
        .innerJoin("tags", "tags.id", "statuses_tags.tag_id")
        .select(["statuses_tags.status_id", "tags.name", "tags.display_name"])
        .where("statuses_tags.status_id", "in", statusIds)
        .orderBy("tags.name"),
    );
    for (const r of rows) {
      const list = out.get(String(r.status_id)) ?? [];
      list.push({ name: r.name, displayName: r.display_name });
      out.set(String(r.status_id), list);
    }
    return out;
  }

  /** The tag of this name, as written or normalised (`#Café`, `cafe`, `ｃａｆｅ` are one tag). */
  async getTag(name: string): Promise<{ id: string; name: string; displayName: string } | undefined> {
    const normalized = normalizeHashtag(name);
    if (normalized === "") return undefined;
    const r = await this.#db
      .selectFrom("tags")
      .select(["id", "name", "display_name"])
      .where(sql<string>`lower(name)`, "=", normalized)
      .executeTakeFirst();
    return r && { id: String(r.id), name: r.name, displayName: r.display_name };
  }

  // Edits

  async insertEdit(
    row: {
      id: string;
      status_id: string;
      account_id: string;
      text: string;
      content: string;
      spoiler_text: string;
      sensitive: boolean;
      /** JSON array of the poll's options at that version, or null. */
      poll_options: string | null;
      created_at: string;
    },
    db: Kysely<DB>,
  ): Promise<void> {
    await db.insertInto("status_edits").values(row).execute();
  }

  async editsOf(statusId: string) {
    const rows = await this.#db
      .selectFrom("status_edits")
      .selectAll()
      .where("status_id", "=", statusId)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      text: r.text,
      content: r.content,
      spoilerText: r.spoiler_text,
      sensitive: Boolean(r.sensitive),
      pollOptions: r.poll_options === null ? null : (JSON.parse(r.poll_options) as string[]),
      createdAt: r.created_at,
    }));
  }

  // Threads

  /** Ids of the live ancestors of a status, nearest first, at most `limit`. */
  async ancestorIds(inReplyToId: string, limit: number): Promise<string[]> {
    const r = await sql<{ id: string | number }>`WITH RECURSIVE anc(id, in_reply_to_id, depth) AS (
        SELECT id, in_reply_to_id, 1 FROM statuses WHERE id = ${inReplyToId} AND deleted_at IS NULL
        UNION ALL
        SELECT s.id, s.in_reply_to_id, anc.depth + 1 FROM statuses s JOIN anc ON s.id = anc.in_reply_to_id
        WHERE s.deleted_at IS NULL AND anc.depth < ${limit}
      ) SELECT id FROM anc ORDER BY depth`.execute(this.#db);
    return r.rows.map((x) => String(x.id));
  }

  /** Live descendants of a status down to `maxDepth`: [id, inReplyToId], oldest first, at most `limit`. */
  async descendantRows(
    statusId: string,
    maxDepth: number,
    limit: number,
  ): Promise<{ id: string; inReplyToId: string }[]> {
    const r = await sql<{
      id: string | number;
      in_reply_to_id: string | number;
    }>`WITH RECURSIVE des(id, in_reply_to_id, depth) AS (
        SELECT id, in_reply_to_id, 1 FROM statuses WHERE in_reply_to_id = ${statusId} AND deleted_at IS NULL
        UNION ALL
        SELECT s.id, s.in_reply_to_id, des.depth + 1 FROM statuses s JOIN des ON s.in_reply_to_id = des.id
        WHERE s.deleted_at IS NULL AND des.depth < ${maxDepth}
      ) SELECT id, in_reply_to_id FROM des ORDER BY id LIMIT ${limit}`.execute(this.#db);
    return r.rows.map((x) => ({ id: String(x.id), inReplyToId: String(x.in_reply_to_id) }));
  }
}
