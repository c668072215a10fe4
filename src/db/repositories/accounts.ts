import { type Insertable, type Kysely, type RawBuilder, type Selectable, sql, type Updateable } from "kysely";
import type { AccountsTable, DB } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

export interface AccountField {
  name: string;
  value: string;
  verified_at: string | null;
}

/** An account row with booleans, JSON and counters normalised. */
export interface Account {
  id: string;
  username: string;
  domain: string | null;
  displayName: string;
  note: string;
  noteSource: string;
  fields: AccountField[];
  fieldsSource: { name: string; value: string }[];
  actorType: string;
  locked: boolean;
  discoverable: boolean | null;
  indexable: boolean;
  hideCollections: boolean | null;
  memorial: boolean;
  uri: string;
  url: string | null;
  inboxUrl: string | null;
  sharedInboxUrl: string | null;
  avatarPath: string | null;
  avatarRemoteUrl: string | null;
  avatarContentType: string | null;
  headerPath: string | null;
  headerRemoteUrl: string | null;
  headerContentType: string | null;
  alsoKnownAs: string[];
  movedToAccountId: string | null;
  suspendedAt: string | null;
  /** `local` (moderation), `remote` (its server), or `deleted` (the account was deleted: answered 410). */
  suspensionOrigin: string | null;
  silencedAt: string | null;
  sensitizedAt: string | null;
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  lastStatusAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function parseJson<T>(s: string | null, fallback: T): T {
  if (!s) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}

const nullableBool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Boolean(v));

export function toAccount(r: AccountRow): Account {
  return {
    id: String(r.id),
    username: r.username,
    domain: r.domain,
    displayName: r.display_name,
    note: r.note,
    noteSource: r.note_source,
    fields: parseJson(r.fields, []),
    fieldsSource: parseJson(r.fields_source, []),
    actorType: r.actor_type,
    locked: Boolean(r.locked),
    discoverable: nullableBool(r.discoverable),
    indexable: Boolean(r.indexable),
    hideCollections: nullableBool(r.hide_collections),
    memorial: Boolean(r.memorial),
    uri: r.uri,
    url: r.url,
    inboxUrl: r.inbox_url,
    sharedInboxUrl: r.shared_inbox_url,
    avatarPath: r.avatar_path,
    avatarRemoteUrl: r.avatar_remote_url,
    avatarContentType: r.avatar_content_type,
    headerPath: r.header_path,
    headerRemoteUrl: r.header_remote_url,
    headerContentType: r.header_content_type,
    alsoKnownAs: parseJson(r.also_known_as, []),
    movedToAccountId: r.moved_to_account_id === null ? null : String(r.moved_to_account_id),
    suspendedAt: r.suspended_at,
    suspensionOrigin: r.suspension_origin,
    silencedAt: r.silenced_at,
    sensitizedAt: r.sensitized_at,
    statusesCount: Number(r.statuses_count),
    followersCount: Number(r.followers_count),
    followingCount: Number(r.following_count),
    lastStatusAt: r.last_status_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type AccountInsert = Insertable<AccountsTable>;

/** The columns `toAccount` reads (not the keys: reading them costs more than the rest of the row). */
export const ACCOUNT_COLUMNS = [
  "id",
  "username",
  "domain",
  "display_name",
  "note",
  "note_source",
  "fields",
  "fields_source",
  "actor_type",
  "locked",
  "discoverable",
  "indexable",
  "hide_collections",
  "memorial",
  "uri",
  "url",
  "inbox_url",
  "shared_inbox_url",
  "avatar_path",
  "avatar_remote_url",
  "avatar_content_type",
  "header_path",
  "header_remote_url",
  "header_content_type",
  "also_known_as",
  "moved_to_account_id",
  "suspended_at",
  "suspension_origin",
  "silenced_at",
  "sensitized_at",
  "statuses_count",
  "followers_count",
  "following_count",
  "last_status_at",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof AccountsTable)[];

type AccountRow = Pick<Selectable<AccountsTable>, (typeof ACCOUNT_COLUMNS)[number]>;

/**
 * SQL twin of `isAccountPublic` (policies/accounts.ts), for queries over `accounts` (or an alias
 * of it): remote accounts, and local accounts whose user confirmed the e-mail and is approved;
 * never deleted accounts. Unconfirmed and unapproved accounts stay out of lists and search.
 */
export function publicAccountCondition(alias = "accounts"): RawBuilder<boolean> {
  const col = (c: string) => sql.ref(`${alias}.${c}`);
  return sql<boolean>`((${col("suspension_origin")} IS NULL OR ${col("suspension_origin")} <> 'deleted')
    AND (${col("domain")} IS NOT NULL OR EXISTS (SELECT 1 FROM users WHERE users.account_id = ${col("id")}
      AND users.confirmed_at IS NOT NULL AND users.approved = ${true})))`;
}

/**
 * Accounts that account search may list and posts may mention: public (see above) and not
 * suspended. The one place where "unconfirmed and unapproved accounts are excluded from search
 * and cannot be mentioned" lives.
 */
export function searchableAccountCondition(alias = "accounts"): RawBuilder<boolean> {
  return sql<boolean>`(${publicAccountCondition(alias)} AND ${sql.ref(`${alias}.suspended_at`)} IS NULL)`;
}

export type AccountUpdate = Updateable<AccountsTable>;

/** What federation needs of a remote account beyond `Account`: its collections, key and freshness. */
export interface RemoteActorInfo {
  id: string;
  uri: string;
  domain: string | null;
  outboxUrl: string | null;
  followersUrl: string | null;
  followingUrl: string | null;
  featuredUrl: string | null;
  featuredTagsUrl: string | null;
  publicKeyPem: string | null;
  /** When the actor document was last fetched and stored (null: never). */
  fetchedAt: string | null;
  /** When WebFinger last confirmed the handle (null: never). */
  lastWebfingeredAt: string | null;
}

/** All SQL on `accounts`. */
export class AccountsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(row: AccountInsert, db: Kysely<DB> = this.#db): Promise<void> {
    await db.insertInto("accounts").values(row).execute();
  }

  async update(id: string, patch: AccountUpdate, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("accounts").set(patch).where("id", "=", id).execute();
  }

  async delete(id: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("accounts").where("id", "=", id).execute();
  }

  async getById(id: string): Promise<Account | undefined> {
    const r = await this.#db.selectFrom("accounts").select(ACCOUNT_COLUMNS).where("id", "=", id).executeTakeFirst();
    return r && toAccount(r);
  }

  async getByIds(ids: readonly string[]): Promise<Account[]> {
    if (ids.length === 0) return [];
    const rows = await selectShaped(this.#db, `accounts.getByIds ${ids.length}`, ids, () =>
      this.#db.selectFrom("accounts").select(ACCOUNT_COLUMNS).where("id", "in", ids),
    );
    return rows.map(toAccount);
  }

  /**
   * Accounts by id (in no particular order), each with whether it is searchable
   * (`searchableAccountCondition`) and its user's role (null: no user).
   */
  async getByIdsWithSearchable(
    ids: readonly string[],
  ): Promise<{ account: Account; searchable: boolean; roleId: string | null }[]> {
    if (ids.length === 0) return [];
    const rows = await selectShaped(this.#db, `accounts.getByIdsWithSearchable ${ids.length}`, [true, ...ids], () =>
      this.#db
        .selectFrom("accounts")
        .select(ACCOUNT_COLUMNS)
        .select(searchableAccountCondition().as("searchable"))
        .select((eb) =>
          eb.selectFrom("users").select("users.role_id").whereRef("users.account_id", "=", "accounts.id").as("role_id"),
        )
        .where("id", "in", ids),
    );
    return rows.map((r) => ({
      account: toAccount(r),
      searchable: Boolean(r.searchable),
      roleId: r.role_id === null || r.role_id === undefined ? null : String(r.role_id),
    }));
  }

  /** The accounts among `ids` that the public may see (`publicAccountCondition`), in no particular order. */
  async getPublicByIds(ids: readonly string[]): Promise<Account[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom("accounts")
      .selectAll()
      .where("id", "in", ids)
      .where(publicAccountCondition())
      .execute();
    return rows.map(toAccount);
  }

  /** Which of `ids` search may list and posts may mention (`searchableAccountCondition`). */
  async searchableIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.#db
      .selectFrom("accounts")
      .select("id")
      .where("id", "in", ids)
      .where(searchableAccountCondition())
      .execute();
    return new Set(rows.map((r) => String(r.id)));
  }

  /** The account `@username@domain` (domain null: local) if it may be mentioned, else undefined. */
  async getMentionable(username: string, domain: string | null): Promise<Account | undefined> {
    const r = await this.#db
      .selectFrom("accounts")
      .selectAll()
      .where(sql<string>`lower(username)`, "=", username.toLowerCase())
      .where(sql<string>`coalesce(lower(domain), '')`, "=", (domain ?? "").toLowerCase())
      .where(searchableAccountCondition())
      .executeTakeFirst();
    return r && toAccount(r);
  }

  /** Local account by username (case-insensitive) when `domain` is null, else the remote one. */
  async getByUsername(username: string, domain: string | null): Promise<Account | undefined> {
    const r = await this.#db
      .selectFrom("accounts")
      .selectAll()
      .where(sql<string>`lower(username)`, "=", username.toLowerCase())
      .where(sql<string>`coalesce(lower(domain), '')`, "=", (domain ?? "").toLowerCase())
      .executeTakeFirst();
    return r && toAccount(r);
  }

  async getByUri(uri: string): Promise<Account | undefined> {
    const [r] = await selectShaped(this.#db, "accounts.getByUri", [uri], () =>
      this.#db.selectFrom("accounts").selectAll().where("uri", "=", uri),
    );
    return r && toAccount(r);
  }

  /** Accounts whose `uri`, or else `url` (profile page: some servers mention by it), is among `uris`. */
  async getByUris(uris: readonly string[]): Promise<Account[]> {
    if (uris.length === 0) return [];
    const rows = await this.#db
      .selectFrom("accounts")
      .select(ACCOUNT_COLUMNS)
      .where((eb) => eb.or([eb("uri", "in", uris), eb("url", "in", uris)]))
      .execute();
    return rows.map(toAccount);
  }

  /** Inserts a remote account; false when its `uri` or `username@domain` is taken already. */
  async insertRemote(row: AccountInsert, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db
      .insertInto("accounts")
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async remoteInfo(id: string): Promise<RemoteActorInfo | undefined> {
    const [r] = await selectShaped(this.#db, "accounts.remoteInfo", [id], () =>
      this.#db
        .selectFrom("accounts")
        .select([
          "id",
          "uri",
          "domain",
          "outbox_url",
          "followers_url",
          "following_url",
          "featured_url",
          "featured_tags_url",
          "public_key_pem",
          "fetched_at",
          "last_webfingered_at",
        ])
        .where("id", "=", id),
    );
    return (
      r && {
        id: String(r.id),
        uri: r.uri,
        domain: r.domain,
        outboxUrl: r.outbox_url,
        followersUrl: r.followers_url,
        followingUrl: r.following_url,
        featuredUrl: r.featured_url,
        featuredTagsUrl: r.featured_tags_url,
        publicKeyPem: r.public_key_pem,
        fetchedAt: r.fetched_at,
        lastWebfingeredAt: r.last_webfingered_at,
      }
    );
  }

  async countLocal(): Promise<number> {
    const r = await this.#db
      .selectFrom("accounts")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("domain", "is", null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Sum of local accounts' statuses (NodeInfo `localPosts`, instance stats). */
  async countLocalStatuses(): Promise<number> {
    const r = await this.#db
      .selectFrom("accounts")
      .select((eb) => eb.fn.sum<number | string | null>("statuses_count").as("n"))
      .where("domain", "is", null)
      .executeTakeFirstOrThrow();
    return Number(r.n ?? 0);
  }

  /** Distinct remote domains (instance peers). */
  async peers(limit = 10000): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("accounts")
      .select("domain")
      .distinct()
      .where("domain", "is not", null)
      .orderBy("domain")
      .limit(limit)
      .execute();
    return rows.map((r) => r.domain as string);
  }
}
