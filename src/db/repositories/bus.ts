import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** Milliseconds since the epoch by the database's clock (not the transaction's start). */
const NOW_MS = sql<string>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * All SQL of the PostgreSQL event bus (`infra/bus/postgres.ts`): the channels processes listen
 * to, payloads too large for a NOTIFY, and NOTIFY itself. PostgreSQL only.
 */
export class BusRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** The schema this database works in: NOTIFY channels are per database, so it is part of their names. */
  async currentSchema(): Promise<string> {
    const r = await sql<{ s: string }>`SELECT current_schema() AS s`.execute(this.#db);
    return r.rows[0]?.s ?? "public";
  }

  /**
   * Marks channels as listened until `ttlMs` from now; answers each mark's age in ms, in order
   * (0 when new, or when the old one had expired).
   */
  async mark(channels: readonly string[], ttlMs: number): Promise<number[]> {
    if (channels.length === 0) return [];
    const r = await sql<{ channel: string; age: string }>`
      INSERT INTO bus_listeners (channel, since, expires_at)
      SELECT c, ${NOW_MS}, ${NOW_MS} + ${ttlMs} FROM unnest(${[...new Set(channels)]}::text[]) AS c
      ON CONFLICT (channel) DO UPDATE SET
        since = CASE WHEN bus_listeners.expires_at < excluded.since THEN excluded.since ELSE bus_listeners.since END,
        expires_at = excluded.expires_at
      RETURNING channel, ${NOW_MS} - since AS age`.execute(this.#db);
    const ages = new Map(r.rows.map((row) => [row.channel, Math.max(0, Number(row.age))]));
    return channels.map((c) => ages.get(c) ?? 0);
  }

  /** The channels among these with an unexpired mark. */
  async marked(channels: readonly string[]): Promise<Set<string>> {
    if (channels.length === 0) return new Set();
    const r = await sql<{ channel: string }>`
      SELECT channel FROM bus_listeners WHERE channel = ANY(${channels}::text[]) AND expires_at > ${NOW_MS}`.execute(
      this.#db,
    );
    return new Set(r.rows.map((row) => row.channel));
  }

  async notify(pgChannel: string, payload: string): Promise<void> {
    await sql`SELECT pg_notify(${pgChannel}, ${payload})`.execute(this.#db);
  }

  async insertPayload(id: string, body: string): Promise<void> {
    await sql`INSERT INTO bus_payloads (id, body, created_at) VALUES (${id}, ${body}, ${NOW_MS})`.execute(this.#db);
  }

  async getPayload(id: string): Promise<string | undefined> {
    const r = await this.#db.selectFrom("bus_payloads").select("body").where("id", "=", id).executeTakeFirst();
    return r?.body;
  }

  /** Drops stored payloads older than `ageMs` and marks expired that long ago. */
  async purge(ageMs: number): Promise<void> {
    await sql`DELETE FROM bus_payloads WHERE created_at < ${NOW_MS} - ${ageMs}`.execute(this.#db);
    await sql`DELETE FROM bus_listeners WHERE expires_at < ${NOW_MS} - ${ageMs}`.execute(this.#db);
  }
}
