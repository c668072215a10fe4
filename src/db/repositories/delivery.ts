import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** A remote actor an activity is delivered to. */
export interface RemoteInbox {
  accountId: string;
  uri: string;
  domain: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
}

const COLUMNS = ["a.id", "a.uri", "a.domain", "a.inbox_url", "a.shared_inbox_url"] as const;

type Row = {
  id: string;
  uri: string;
  domain: string | null;
  inbox_url: string | null;
  shared_inbox_url: string | null;
};

const toInbox = (r: Row): RemoteInbox | undefined =>
  r.domain === null || r.inbox_url === null
    ? undefined
    : {
        accountId: String(r.id),
        uri: r.uri,
        domain: r.domain,
        inboxUrl: r.inbox_url,
        sharedInboxUrl: r.shared_inbox_url,
      };

const inboxes = (rows: Row[]): RemoteInbox[] => rows.map(toInbox).filter((r) => r !== undefined);

/**
 * The SQL of outgoing federation: which remote actors (with an inbox, not suspended) an
 * activity goes to. Local accounts are never listed: they see local activity directly.
 */
export class DeliveryRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The remote followers of a local account, in one statement (a few thousand rows at most). */
  async remoteFollowers(accountId: string): Promise<RemoteInbox[]> {
    const rows = await this.#db
      .selectFrom("follows as f")
      .innerJoin("accounts as a", "a.id", "f.account_id")
      .select(COLUMNS)
      .where("f.target_account_id", "=", accountId)
      .where("a.domain", "is not", null)
      .where("a.suspended_at", "is", null)
      .execute();
    return inboxes(rows);
  }

  /**
   * One remote actor for each inbox this server knows, the shared one where an actor has it:
   * where the deletion of a local account goes (Mastodon's `Account.inboxes`). Suspended
   * accounts are left out; so are their domains when delivering.
   */
  async knownInboxes(): Promise<RemoteInbox[]> {
    const rows = await this.#db
      .selectFrom("accounts as a")
      .select((eb) => [
        eb.fn.min("a.id").as("id"),
        eb.fn.min("a.uri").as("uri"),
        eb.fn.min("a.domain").as("domain"),
        eb.fn.min("a.inbox_url").as("inbox_url"),
        eb.fn.min("a.shared_inbox_url").as("shared_inbox_url"),
      ])
      .where("a.domain", "is not", null)
      .where("a.inbox_url", "is not", null)
      .where("a.suspended_at", "is", null)
      .groupBy(sql`COALESCE(a.shared_inbox_url, a.inbox_url)`)
      .execute();
    return inboxes(rows as Row[]);
  }

  /** The remote accounts among `accountIds` (mentioned, replied to, a follow's target, ...). */
  async remoteAccounts(accountIds: readonly string[]): Promise<RemoteInbox[]> {
    if (accountIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("accounts as a")
      .select(COLUMNS)
      .where("a.id", "in", [...new Set(accountIds)])
      .where("a.domain", "is not", null)
      .where("a.suspended_at", "is", null)
      .execute();
    return inboxes(rows);
  }

  /** The remote accounts mentioned by a status. */
  async remoteMentioned(statusId: string): Promise<RemoteInbox[]> {
    const rows = await this.#db
      .selectFrom("mentions as m")
      .innerJoin("accounts as a", "a.id", "m.account_id")
      .select(COLUMNS)
      .where("m.status_id", "=", statusId)
      .where("a.domain", "is not", null)
      .where("a.suspended_at", "is", null)
      .execute();
    return inboxes(rows);
  }

  /**
   * The remote accounts that boosted or replied to a status (an edit or a delete reaches them
   * too, as Mastodon sends them, so their copies change with it). Bounded: the newest 1,000.
   */
  async remoteInteractors(statusId: string): Promise<RemoteInbox[]> {
    const rows = await this.#db
      .selectFrom("statuses as s")
      .innerJoin("accounts as a", "a.id", "s.account_id")
      .select(COLUMNS)
      .where((eb) => eb.or([eb("s.reblog_of_id", "=", statusId), eb("s.in_reply_to_id", "=", statusId)]))
      .where("s.deleted_at", "is", null)
      .where("a.domain", "is not", null)
      .where("a.suspended_at", "is", null)
      .orderBy("s.id", "desc")
      .limit(1000)
      .execute();
    return inboxes(rows);
  }

  /** The local followers of an account (ids), oldest first, at most `limit` (a move takes them along). */
  async localFollowers(accountId: string, limit: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("follows as f")
      .innerJoin("accounts as a", "a.id", "f.account_id")
      .select("a.id")
      .where("f.target_account_id", "=", accountId)
      .where("a.domain", "is", null)
      .orderBy("f.id", "asc")
      .limit(limit)
      .execute();
    return rows.map((r) => String(r.id));
  }
}
