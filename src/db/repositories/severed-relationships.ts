import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** One local account's share of a severance event (Mastodon's AccountRelationshipSeveranceEvent). */
export interface AccountSeveranceEvent {
  /** The account event's id: the notification's `event.id`, and the CSV downloads' id. */
  id: string;
  accountId: string;
  eventId: string;
  /** `domain_block`, `user_domain_block` or `account_suspension`. */
  type: string;
  targetName: string;
  purged: boolean;
  followersCount: number;
  followingCount: number;
  createdAt: string;
}

/** One follow an event cut, as the CSV downloads list it. */
export interface SeveredRelationship {
  id: string;
  remoteAcct: string;
  showReblogs: boolean;
  notify: boolean;
  languages: string[] | null;
}

/** A follow between a local account and a remote one of a domain, about to be cut. */
interface DomainFollow {
  localAccountId: string;
  remoteAcct: string;
  remoteUri: string;
  direction: "active" | "passive";
  showReblogs: boolean;
  notify: boolean;
  languages: string | null;
}

const INSERT_CHUNK = 200;

/**
 * All SQL on `relationship_severance_events`, `severed_relationships` and
 * `account_relationship_severance_events` (migration 0034): the follows a suspension of a domain
 * cut, kept so that each local user who lost some can be told and can download the list.
 */
export class SeveredRelationshipsRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * Records an event and every follow between a local account and an account of `domain` (or
   * a subdomain), both ways, then one row per local account with its counts. The local accounts
   * that lost something.
   */
  async recordDomainEvent(
    event: { id: string; type: string; targetName: string; createdAt: string },
    domain: string,
    nextId: () => string,
  ): Promise<string[]> {
    return this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto("relationship_severance_events")
        .values({
          id: event.id,
          type: event.type,
          target_name: event.targetName,
          purged: false,
          created_at: event.createdAt,
          updated_at: event.createdAt,
        })
        .execute();
      const follows = await domainFollows(trx, domain);
      for (let i = 0; i < follows.length; i += INSERT_CHUNK) {
        await trx
          .insertInto("severed_relationships")
          .values(
            follows.slice(i, i + INSERT_CHUNK).map((f) => ({
              id: nextId(),
              relationship_severance_event_id: event.id,
              local_account_id: f.localAccountId,
              remote_acct: f.remoteAcct,
              remote_uri: f.remoteUri,
              direction: f.direction,
              show_reblogs: f.showReblogs,
              notify: f.notify,
              languages: f.languages,
              created_at: event.createdAt,
            })),
          )
          .execute();
      }
      const counts = new Map<string, { followers: number; following: number }>();
      for (const f of follows) {
        const c = counts.get(f.localAccountId) ?? { followers: 0, following: 0 };
        if (f.direction === "active") c.following++;
        else c.followers++;
        counts.set(f.localAccountId, c);
      }
      const rows = [...counts].map(([accountId, c]) => ({
        id: nextId(),
        account_id: accountId,
        relationship_severance_event_id: event.id,
        followers_count: c.followers,
        following_count: c.following,
        created_at: event.createdAt,
      }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await trx
          .insertInto("account_relationship_severance_events")
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
      }
      return [...counts.keys()];
    });
  }

  /** The account events of `eventId`, after `afterId` by id (to notify a batch at a time). */
  async accountEventsOf(eventId: string, afterId: string, limit: number): Promise<AccountSeveranceEvent[]> {
    const rows = await this.#select()
      .where("ae.relationship_severance_event_id", "=", eventId)
      .where("ae.id", ">", afterId)
      .orderBy("ae.id")
      .limit(limit)
      .execute();
    return rows.map(toAccountEvent);
  }

  async accountEventsByIds(ids: readonly string[]): Promise<AccountSeveranceEvent[]> {
    if (ids.length === 0) return [];
    const rows = await this.#select()
      .where("ae.id", "in", [...ids])
      .execute();
    return rows.map(toAccountEvent);
  }

  /** The cut follows one local account had in one event, newest first; `active`: those it followed. */
  async severedOf(
    eventId: string,
    localAccountId: string,
    direction: "active" | "passive",
  ): Promise<SeveredRelationship[]> {
    const rows = await this.#db
      .selectFrom("severed_relationships")
      .select(["id", "remote_acct", "show_reblogs", "notify", "languages"])
      .where("relationship_severance_event_id", "=", eventId)
      .where("local_account_id", "=", localAccountId)
      .where("direction", "=", direction)
      .orderBy("id", "desc")
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      remoteAcct: r.remote_acct,
      showReblogs: Boolean(r.show_reblogs),
      notify: Boolean(r.notify),
      languages: r.languages === null ? null : (JSON.parse(r.languages) as string[]),
    }));
  }

  #select() {
    return this.#db
      .selectFrom("account_relationship_severance_events as ae")
      .innerJoin("relationship_severance_events as e", "e.id", "ae.relationship_severance_event_id")
      .select([
        "ae.id",
        "ae.account_id",
        "ae.relationship_severance_event_id",
        "ae.followers_count",
        "ae.following_count",
        "e.type",
        "e.target_name",
        "e.purged",
        "e.created_at",
      ]);
  }
}

async function domainFollows(db: Kysely<DB>, domain: string): Promise<DomainFollow[]> {
  const like = `%.${domain}`;
  const rows = await sql<{
    local_id: string | number;
    username: string;
    domain: string;
    uri: string;
    direction: "active" | "passive";
    show_reblogs: boolean | number;
    notify: boolean | number;
    languages: string | null;
  }>`
    SELECT f.account_id AS local_id, r.username, r.domain, r.uri, 'active' AS direction, f.show_reblogs, f.notify, f.languages
      FROM follows f JOIN accounts l ON l.id = f.account_id JOIN accounts r ON r.id = f.target_account_id
      WHERE l.domain IS NULL AND (r.domain = ${domain} OR r.domain LIKE ${like})
    UNION ALL
    SELECT f.target_account_id AS local_id, r.username, r.domain, r.uri, 'passive' AS direction, f.show_reblogs, f.notify, f.languages
      FROM follows f JOIN accounts l ON l.id = f.target_account_id JOIN accounts r ON r.id = f.account_id
      WHERE l.domain IS NULL AND (r.domain = ${domain} OR r.domain LIKE ${like})`.execute(db);
  return rows.rows.map((r) => ({
    localAccountId: String(r.local_id),
    remoteAcct: `${r.username}@${r.domain}`,
    remoteUri: r.uri,
    direction: r.direction,
    showReblogs: Boolean(r.show_reblogs),
    notify: Boolean(r.notify),
    languages: r.languages,
  }));
}

function toAccountEvent(r: {
  id: string | number;
  account_id: string | number;
  relationship_severance_event_id: string | number;
  followers_count: number;
  following_count: number;
  type: string;
  target_name: string;
  purged: boolean | number;
  created_at: string;
}): AccountSeveranceEvent {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    eventId: String(r.relationship_severance_event_id),
    type: r.type,
    targetName: r.target_name,
    purged: Boolean(r.purged),
    followersCount: Number(r.followers_count),
    followingCount: Number(r.following_count),
    createdAt: r.created_at,
  };
}
