import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { searchableAccountCondition } from "./accounts.ts";

/**
 * An actor's two key pairs as stored: PEM text, SPKI for public keys and PKCS #8 for private
 * ones, for both RSA and Ed25519 (`src/federation/keys.ts`).
 */
export interface StoredActorKeys {
  rsaPublic: string;
  rsaPrivate: string;
  ed25519Public: string;
  ed25519Private: string;
}

/** A remote follower's delivery addresses. */
export interface RemoteFollowerInbox {
  uri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
}

/**
 * What serving local actors needs beyond the account row: their keys (read apart from the rest
 * of the row: they are large) and their followers' inboxes and origins.
 */
export class LocalActorsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** A local account's keys, or undefined when it has none yet (or some are missing). */
  async get(accountId: string): Promise<StoredActorKeys | undefined> {
    const r = await this.#db
      .selectFrom("accounts")
      .select(["public_key_pem", "private_key_pem", "ed25519_public_key", "ed25519_private_key"])
      .where("id", "=", accountId)
      .where("domain", "is", null)
      .executeTakeFirst();
    if (!r?.public_key_pem || !r.private_key_pem || !r.ed25519_public_key || !r.ed25519_private_key) return undefined;
    return {
      rsaPublic: r.public_key_pem,
      rsaPrivate: r.private_key_pem,
      ed25519Public: r.ed25519_public_key,
      ed25519Private: r.ed25519_private_key,
    };
  }

  /**
   * Stores the pairs a local account lacks; a pair it has is kept (remote servers cache it), so
   * two processes generating at once settle on the first stored pair: read back with `get`.
   */
  async fillIfMissing(accountId: string, keys: StoredActorKeys): Promise<void> {
    await this.#db
      .updateTable("accounts")
      .set({ public_key_pem: keys.rsaPublic, private_key_pem: keys.rsaPrivate })
      .where("id", "=", accountId)
      .where("domain", "is", null)
      .where((eb) => eb.or([eb("public_key_pem", "is", null), eb("private_key_pem", "is", null)]))
      .execute();
    await this.#db
      .updateTable("accounts")
      .set({ ed25519_public_key: keys.ed25519Public, ed25519_private_key: keys.ed25519Private })
      .where("id", "=", accountId)
      .where("domain", "is", null)
      .where((eb) => eb.or([eb("ed25519_public_key", "is", null), eb("ed25519_private_key", "is", null)]))
      .execute();
  }

  /** The remote accounts following `accountId` that have an inbox (delivery targets). */
  async remoteFollowerInboxes(accountId: string): Promise<RemoteFollowerInbox[]> {
    const rows = await this.#db
      .selectFrom("follows")
      .innerJoin("accounts", "accounts.id", "follows.account_id")
      .select(["accounts.uri", "accounts.inbox_url", "accounts.shared_inbox_url"])
      .where("follows.target_account_id", "=", accountId)
      .where("accounts.domain", "is not", null)
      .where("accounts.inbox_url", "is not", null)
      .where("accounts.suspended_at", "is", null)
      .execute();
    return rows.map((r) => ({ uri: r.uri, inboxUrl: r.inbox_url as string, sharedInboxUrl: r.shared_inbox_url }));
  }

  /**
   * Whether an account whose URI starts with `origin` (`https://host[:port]`) follows `accountId`:
   * a server with a follower may fetch followers-only posts.
   */
  async hasFollowerAt(accountId: string, origin: string): Promise<boolean> {
    const prefix = `${origin.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
    const r = await this.#db
      .selectFrom("follows")
      .innerJoin("accounts", "accounts.id", "follows.account_id")
      .select("follows.id")
      .where("follows.target_account_id", "=", accountId)
      .where(sql<boolean>`accounts.uri LIKE ${prefix} ESCAPE '\\'`)
      .where(searchableAccountCondition())
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  /**
   * One page of the live public and unlisted direct replies to a status (local or remote), oldest
   * first, after `afterId`: the items of a post's `replies` collection.
   */
  async publicRepliesPage(
    statusId: string,
    afterId: string | undefined,
    limit: number,
  ): Promise<{ id: string; uri: string }[]> {
    let q = this.#db
      .selectFrom("statuses")
      .select(["id", "uri"])
      .where("in_reply_to_id", "=", statusId)
      .where("deleted_at", "is", null)
      .where("visibility", "in", ["public", "unlisted"]);
    if (afterId !== undefined) q = q.where("id", ">", afterId);
    const rows = await q.orderBy("id", "asc").limit(limit).execute();
    return rows.map((r) => ({ id: String(r.id), uri: r.uri }));
  }
}
