import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

/** Who did what to a status, whoever they are: what streaming needs to render it for many viewers at once. */
export interface StatusInteractions {
  /** `${accountId} ${statusId}` pairs. */
  favourited: Set<string>;
  reblogged: Set<string>;
  bookmarked: Set<string>;
  pinned: Set<string>;
  /** `${accountId} ${conversationId}` pairs. */
  mutedConversations: Set<string>;
  /** Accounts with at least one of the above (the others all get the same flags). */
  accounts: Set<string>;
  /** Votes by account, per poll id. */
  votes: Map<string, Map<string, number[]>>;
}

const str = (v: string | number): string => String(v);

/**
 * The SQL of the streaming API: queries from the status's side (who blocks its author, who
 * favourited it), so one event costs a few queries whatever the number of subscribers.
 */
export class StreamingRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * The accounts that must not be shown a status by `authorIds` mentioning `mentionedIds`, as
   * the home filter (`homeFilterAllows`) decides: those who block or (live) mute an author or a
   * mentioned account, those an author blocks, and those who block an author's domain without
   * following that author.
   */
  async excludedViewers(authorIds: readonly string[], mentionedIds: readonly string[], now: string) {
    const out = new Set<string>();
    if (authorIds.length === 0) return out;
    const involved = [...new Set([...authorIds, ...mentionedIds])];
    const rows = await sql<{ id: string | number }>`
      SELECT b.account_id AS id FROM blocks b WHERE b.target_account_id IN (${sql.join(involved)})
      UNION SELECT b.target_account_id FROM blocks b WHERE b.account_id IN (${sql.join(authorIds)})
      UNION SELECT m.account_id FROM mutes m WHERE m.target_account_id IN (${sql.join(involved)})
        AND (m.expires_at IS NULL OR m.expires_at > ${now})
      UNION SELECT d.account_id FROM accounts a JOIN account_domain_blocks d ON d.domain = a.domain
        WHERE a.id IN (${sql.join(authorIds)}) AND NOT EXISTS (SELECT 1 FROM follows f
          WHERE f.account_id = d.account_id AND f.target_account_id = a.id)`.execute(this.#db);
    for (const r of rows.rows) out.add(str(r.id));
    return out;
  }

  /** Favourites, boosts, bookmarks and pins of `statusIds`, mutes of `conversationIds`, votes in `pollIds`. */
  async interactions(
    statusIds: readonly string[],
    conversationIds: readonly string[],
    pollIds: readonly string[],
  ): Promise<StatusInteractions> {
    const out: StatusInteractions = {
      favourited: new Set(),
      reblogged: new Set(),
      bookmarked: new Set(),
      pinned: new Set(),
      mutedConversations: new Set(),
      accounts: new Set(),
      votes: new Map(),
    };
    if (statusIds.length === 0) return out;
    const ids = sql.join(statusIds);
    const conversations = conversationIds.length > 0 ? sql.join(conversationIds) : sql`NULL`;
    const rows = await sql<{ kind: string; account_id: string | number; key: string | number }>`
      SELECT 'f' AS kind, account_id, status_id AS key FROM favourites WHERE status_id IN (${ids})
      UNION ALL SELECT 'b', account_id, status_id FROM bookmarks WHERE status_id IN (${ids})
      UNION ALL SELECT 'p', account_id, status_id FROM status_pins WHERE status_id IN (${ids})
      UNION ALL SELECT 'r', account_id, reblog_of_id FROM statuses
        WHERE reblog_of_id IN (${ids}) AND deleted_at IS NULL
      UNION ALL SELECT 'm', account_id, conversation_id FROM conversation_mutes
        WHERE conversation_id IN (${conversations})`.execute(this.#db);
    const sets: Record<string, Set<string>> = {
      f: out.favourited,
      b: out.bookmarked,
      p: out.pinned,
      r: out.reblogged,
      m: out.mutedConversations,
    };
    for (const r of rows.rows) {
      const account = str(r.account_id);
      sets[r.kind]?.add(`${account} ${str(r.key)}`);
      out.accounts.add(account);
    }
    if (pollIds.length > 0) {
      const votes = await this.#db
        .selectFrom("poll_votes")
        .select(["poll_id", "account_id", "choice"])
        .where("poll_id", "in", pollIds)
        .orderBy("choice")
        .execute();
      for (const v of votes) {
        const poll = str(v.poll_id);
        const account = str(v.account_id);
        let byAccount = out.votes.get(poll);
        if (!byAccount) out.votes.set(poll, (byAccount = new Map()));
        const mine = byAccount.get(account);
        if (mine) mine.push(Number(v.choice));
        else byAccount.set(account, [Number(v.choice)]);
      }
    }
    return out;
  }

  /** Among `viewerIds`, those who follow `authorId`. */
  async followersAmong(authorId: string, viewerIds: readonly string[]): Promise<Set<string>> {
    if (viewerIds.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom("follows")
      .select("account_id")
      .where("target_account_id", "=", authorId)
      .where("account_id", "in", viewerIds)
      .execute();
    return new Set(rows.map((r) => str(r.account_id)));
  }

  /** The accounts whose home feed holds the status. */
  async homesHolding(statusId: string, db: Kysely<DB> = this.#db): Promise<string[]> {
    const rows = await selectShaped(db, "streaming.homesHolding", [statusId], () =>
      db.selectFrom("feeds").select("account_id").where("status_id", "=", statusId),
    );
    return rows.map((r) => str(r.account_id));
  }

  /** The lists whose timeline holds the status. */
  async listsHolding(statusId: string, db: Kysely<DB> = this.#db): Promise<string[]> {
    const rows = await selectShaped(db, "streaming.listsHolding", [statusId], () =>
      db.selectFrom("list_feeds").select("list_id").where("status_id", "=", statusId),
    );
    return rows.map((r) => str(r.list_id));
  }

  /** Lower-cased names of the status's hashtags. */
  async tagNames(statusId: string, db: Kysely<DB> = this.#db): Promise<string[]> {
    const rows = await selectShaped(db, "streaming.tagNames", [statusId], () =>
      db
        .selectFrom("statuses_tags")
        .innerJoin("tags", "tags.id", "statuses_tags.tag_id")
        .select("tags.name")
        .where("statuses_tags.status_id", "=", statusId),
    );
    return rows.map((r) => r.name.toLowerCase());
  }

  /** Whether the status has a media attachment. */
  async hasMedia(statusId: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    const [row] = await selectShaped(db, "streaming.hasMedia", [statusId, 1], () =>
      db.selectFrom("media_attachments").select("id").where("status_id", "=", statusId).limit(1),
    );
    return row !== undefined;
  }

  /** The accounts each status mentions. */
  async mentioned(statusIds: readonly string[], db: Kysely<DB> = this.#db): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (statusIds.length === 0) return out;
    const rows = await db
      .selectFrom("mentions")
      .select(["status_id", "account_id"])
      .where("status_id", "in", statusIds)
      .execute();
    for (const r of rows) {
      const list = out.get(str(r.status_id));
      if (list) list.push(str(r.account_id));
      else out.set(str(r.status_id), [str(r.account_id)]);
    }
    return out;
  }

  /** Among `accountIds`, those with a filter in force at `now` (500 ids per query). */
  async accountsWithFilters(accountIds: readonly string[], now: string): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < accountIds.length; i += 500) {
      const rows = await this.#db
        .selectFrom("filters")
        .select("account_id")
        .distinct()
        .where("account_id", "in", accountIds.slice(i, i + 500))
        .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
        .execute();
      for (const r of rows) out.add(str(r.account_id));
    }
    return out;
  }

  /** The owner of a list, if the list exists. */
  async listOwner(listId: string): Promise<string | undefined> {
    const row = await this.#db.selectFrom("lists").select("account_id").where("id", "=", listId).executeTakeFirst();
    return row === undefined ? undefined : str(row.account_id);
  }
}
