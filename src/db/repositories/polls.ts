import { type Kysely, type Selectable, sql } from "kysely";
import type { DialectName } from "../database.ts";
import type { DB, PollsTable } from "../schema.ts";

/** A poll row, options parsed and booleans normalised. */
export interface Poll {
  id: string;
  accountId: string;
  statusId: string;
  expiresAt: string | null;
  options: string[];
  multiple: boolean;
  hideTotals: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Votes of a poll: per option (index → count), in all, and how many accounts voted. */
export interface PollTally {
  perOption: Map<number, number>;
  votesCount: number;
  votersCount: number;
}

function parseOptions(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

function parseCounts(text: string | null): number[] {
  try {
    const v = JSON.parse(text ?? "[]");
    return Array.isArray(v) ? v.map((n) => Math.max(0, Math.floor(Number(n) || 0))) : [];
  } catch {
    return [];
  }
}

export function toPoll(r: Selectable<PollsTable>): Poll {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    statusId: String(r.status_id),
    expiresAt: r.expires_at,
    options: parseOptions(r.options),
    multiple: Boolean(r.multiple),
    hideTotals: Boolean(r.hide_totals),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** All SQL on `polls` and `poll_votes`. */
export class PollsRepository {
  readonly #db: Kysely<DB>;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async insert(
    row: {
      id: string;
      account_id: string;
      status_id: string;
      expires_at: string | null;
      options: string[];
      multiple: boolean;
      hide_totals: boolean;
      created_at: string;
    },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .insertInto("polls")
      .values({ ...row, options: JSON.stringify(row.options), updated_at: row.created_at })
      .execute();
  }

  async update(
    id: string,
    patch: {
      expires_at: string | null;
      options: string[];
      multiple: boolean;
      hide_totals: boolean;
      updated_at: string;
    },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .updateTable("polls")
      .set({ ...patch, options: JSON.stringify(patch.options) })
      .where("id", "=", id)
      .execute();
  }

  async getById(id: string, db: Kysely<DB> = this.#db): Promise<Poll | undefined> {
    const r = await db.selectFrom("polls").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toPoll(r);
  }

  /**
   * The poll, locked until the transaction ends on PostgreSQL (`FOR UPDATE`), so two votes of
   * one account cannot both pass the "already voted" check. SQLite runs one transaction at a time.
   */
  async getForUpdate(id: string, trx: Kysely<DB>): Promise<Poll | undefined> {
    let q = trx.selectFrom("polls").selectAll().where("id", "=", id);
    if (this.#dialect === "postgres") q = q.forUpdate();
    const r = await q.executeTakeFirst();
    return r && toPoll(r);
  }

  async getByIds(ids: readonly string[]): Promise<Poll[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db
      .selectFrom("polls")
      .selectAll()
      .where("id", "in", [...ids])
      .execute();
    return rows.map(toPoll);
  }

  /** Removes a poll and its votes. */
  async delete(id: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("poll_votes").where("poll_id", "=", id).execute();
    await db.deleteFrom("polls").where("id", "=", id).execute();
  }

  /** Forgets every vote of a poll (its options changed). */
  async deleteVotes(pollId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("poll_votes").where("poll_id", "=", pollId).execute();
  }

  async insertVotes(
    rows: { id: string; poll_id: string; account_id: string; choice: number; created_at: string }[],
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    if (rows.length === 0) return;
    await db.insertInto("poll_votes").values(rows).execute();
  }

  /** The options (indexes) an account chose in each of the polls, in the order chosen. */
  async ownVotes(accountId: string, pollIds: readonly string[], db: Kysely<DB> = this.#db) {
    const out = new Map<string, number[]>();
    if (pollIds.length === 0) return out;
    const rows = await db
      .selectFrom("poll_votes")
      .select(["poll_id", "choice"])
      .where("account_id", "=", accountId)
      .where("poll_id", "in", [...pollIds])
      .orderBy("id")
      .execute();
    for (const r of rows) {
      const id = String(r.poll_id);
      const list = out.get(id) ?? [];
      list.push(Number(r.choice));
      out.set(id, list);
    }
    return out;
  }

  /** Vote counts of the polls, two grouped queries whatever their number. */
  async tallies(pollIds: readonly string[]): Promise<Map<string, PollTally>> {
    const out = new Map<string, PollTally>();
    if (pollIds.length === 0) return out;
    const ids = [...pollIds];
    const [perChoice, voters] = await Promise.all([
      this.#db
        .selectFrom("poll_votes")
        .select(["poll_id", "choice", sql<string | number>`count(*)`.as("n")])
        .where("poll_id", "in", ids)
        .groupBy(["poll_id", "choice"])
        .execute(),
      this.#db
        .selectFrom("poll_votes")
        .select(["poll_id", sql<string | number>`count(distinct account_id)`.as("n")])
        .where("poll_id", "in", ids)
        .groupBy("poll_id")
        .execute(),
    ]);
    for (const id of ids) out.set(id, { perOption: new Map(), votesCount: 0, votersCount: 0 });
    for (const r of perChoice) {
      const t = out.get(String(r.poll_id));
      if (!t) continue;
      t.perOption.set(Number(r.choice), Number(r.n));
      t.votesCount += Number(r.n);
    }
    for (const r of voters) {
      const t = out.get(String(r.poll_id));
      if (t) t.votersCount = Number(r.n);
    }
    // A remote poll is counted by its server: its last reported counts stand (local votes are
    // in them once that server has them).
    const remote = await this.#db
      .selectFrom("polls")
      .select(["id", "remote_counts", "remote_voters_count"])
      .where("id", "in", ids)
      .where("remote_counts", "is not", null)
      .execute();
    for (const r of remote) {
      const counts = parseCounts(r.remote_counts);
      const perOption = new Map(counts.map((n, i) => [i, n] as [number, number]));
      const votesCount = counts.reduce((a, b) => a + b, 0);
      const local = out.get(String(r.id));
      out.set(String(r.id), {
        perOption,
        votesCount,
        votersCount: Math.max(Number(r.remote_voters_count ?? 0), local?.votersCount ?? 0),
      });
    }
    return out;
  }

  /** Stores a remote poll's counts as its server reports them (Create or Update of its Question). */
  async setRemoteCounts(id: string, counts: readonly number[], voters: number | null, db: Kysely<DB> = this.#db) {
    await db
      .updateTable("polls")
      .set({ remote_counts: JSON.stringify(counts), remote_voters_count: voters })
      .where("id", "=", id)
      .execute();
  }

  /** The accounts that voted in a poll. */
  async voterIds(pollId: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("poll_votes")
      .select("account_id")
      .distinct()
      .where("poll_id", "=", pollId)
      .execute();
    return rows.map((r) => String(r.account_id));
  }
}
