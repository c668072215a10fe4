import { type Kysely, sql } from "kysely";
import type { DB, DeliveryHealthTable } from "../schema.ts";
import { escapeLike } from "./admin-accounts.ts";

/** The `delivery_health` row of one remote server (migration 0054). */
export interface DeliveryHealth {
  domain: string;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  /** Failed deliveries since the last one that worked. */
  consecutiveFailures: number;
  failuresTotal: number;
  successesTotal: number;
  lastError: string | null;
  updatedAt: string;
}

/** What one batch of deliveries to a server did, merged into its row by `recordHealth`. */
export interface HealthDelta {
  domain: string;
  /** The latest success of the batch, if any (then `failuresAfter` counts from it). */
  successAt: string | null;
  failureAt: string | null;
  successes: number;
  failures: number;
  /** Failures after the batch's last success (all of them without one). */
  failuresAfter: number;
  lastError: string | null;
}

/** Deliveries of one server waiting in the database queue. */
export interface QueuedDeliveries {
  /** Not tried yet (due or scheduled). */
  waiting: number;
  /** Tried and failed at least once, waiting for the next attempt. */
  retrying: number;
  running: number;
}

export interface InstanceFilter {
  /** Part of the domain. */
  q?: string;
  /** Only servers whose last deliveries failed. */
  failing?: boolean;
  /** Only servers with a domain block (their own or a parent's). */
  blocked?: boolean;
}

export interface InstanceCounts {
  accounts: number;
  /** Follows from local accounts to accounts of the server. */
  followedFromHere: number;
  /** Follows from accounts of the server to local accounts. */
  followingHere: number;
  /** Reports about accounts of the server. */
  reports: number;
}

const toHealth = (r: DeliveryHealthTable): DeliveryHealth => ({
  domain: r.domain,
  lastSuccessAt: r.last_success_at,
  lastFailureAt: r.last_failure_at,
  consecutiveFailures: Number(r.consecutive_failures),
  failuresTotal: Number(r.failures_total),
  successesTotal: Number(r.successes_total),
  lastError: r.last_error,
  updatedAt: r.updated_at,
});

/**
 * Known remote servers for the moderation panel: the domains of known accounts, of delivery
 * health rows and of domain blocks, their counts, and their delivery health.
 */
export class FederationInstancesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * Merges batches into the servers' rows, one statement for all: a batch with a success resets
   * the count of failures in a row to its failures after that success, else adds to it. Times
   * only move forward (batches of several workers may arrive in any order).
   */
  async recordHealth(deltas: HealthDelta[], now: string): Promise<void> {
    if (deltas.length === 0) return;
    const values = deltas.map(
      (d) =>
        sql`(${d.domain}, ${d.successAt}, ${d.failureAt}, ${d.failuresAfter}, ${d.failures}, ${d.successes}, ${d.lastError}, ${now})`,
    );
    await sql`INSERT INTO delivery_health
      (domain, last_success_at, last_failure_at, consecutive_failures, failures_total, successes_total, last_error, updated_at)
      VALUES ${sql.join(values)}
      ON CONFLICT (domain) DO UPDATE SET
        last_success_at = CASE WHEN delivery_health.last_success_at IS NULL OR excluded.last_success_at > delivery_health.last_success_at
          THEN excluded.last_success_at ELSE delivery_health.last_success_at END,
        last_failure_at = CASE WHEN delivery_health.last_failure_at IS NULL OR excluded.last_failure_at > delivery_health.last_failure_at
          THEN excluded.last_failure_at ELSE delivery_health.last_failure_at END,
        consecutive_failures = CASE WHEN excluded.last_success_at IS NOT NULL
          THEN excluded.consecutive_failures ELSE delivery_health.consecutive_failures + excluded.consecutive_failures END,
        failures_total = delivery_health.failures_total + excluded.failures_total,
        successes_total = delivery_health.successes_total + excluded.successes_total,
        last_error = COALESCE(excluded.last_error, delivery_health.last_error),
        updated_at = excluded.updated_at`.execute(this.#db);
  }

  async healthOf(domains: string[]): Promise<Map<string, DeliveryHealth>> {
    if (domains.length === 0) return new Map();
    const rows = await this.#db.selectFrom("delivery_health").selectAll().where("domain", "in", domains).execute();
    return new Map(rows.map((r) => [r.domain, toHealth(r)]));
  }

  /** How many servers have failed deliveries since their last that worked. */
  async failingCount(): Promise<number> {
    const r = await this.#db
      .selectFrom("delivery_health")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("consecutive_failures", ">", 0)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** One page of known servers by name (one more than `limit` when there are more). */
  async list(filter: InstanceFilter, offset: number, limit: number): Promise<string[]> {
    const conditions = [sql`1 = 1`];
    if (filter.q) conditions.push(sql`d.domain LIKE ${`%${escapeLike(filter.q.toLowerCase())}%`} ESCAPE '\\'`);
    if (filter.failing) {
      conditions.push(sql`d.domain IN (SELECT domain FROM delivery_health WHERE consecutive_failures > 0)`);
    }
    if (filter.blocked) {
      conditions.push(sql`EXISTS (SELECT 1 FROM domain_blocks b
        WHERE d.domain = b.domain OR d.domain LIKE '%.' || b.domain)`);
    }
    const r = await sql<{ domain: string }>`SELECT d.domain FROM (
        SELECT DISTINCT domain FROM accounts WHERE domain IS NOT NULL
        UNION SELECT domain FROM delivery_health
        UNION SELECT domain FROM domain_blocks
      ) d WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY d.domain LIMIT ${limit + 1} OFFSET ${offset}`.execute(this.#db);
    return r.rows.map((x) => x.domain);
  }

  /** Accounts, follows both ways and reports of each server. */
  async counts(domains: string[]): Promise<Map<string, InstanceCounts>> {
    const out = new Map<string, InstanceCounts>();
    if (domains.length === 0) return out;
    for (const d of domains) out.set(d, { accounts: 0, followedFromHere: 0, followingHere: 0, reports: 0 });
    const put = (rows: { domain: string | null; n: number | string }[], key: keyof InstanceCounts) => {
      for (const r of rows) {
        const c = r.domain === null ? undefined : out.get(r.domain);
        if (c) c[key] = Number(r.n);
      }
    };
    const db = this.#db;
    put(
      await db
        .selectFrom("accounts")
        .select((eb) => ["domain", eb.fn.countAll<number | string>().as("n")])
        .where("domain", "in", domains)
        .groupBy("domain")
        .execute(),
      "accounts",
    );
    put(
      await db
        .selectFrom("follows")
        .innerJoin("accounts", "accounts.id", "follows.target_account_id")
        .select((eb) => ["accounts.domain", eb.fn.countAll<number | string>().as("n")])
        .where("accounts.domain", "in", domains)
        .groupBy("accounts.domain")
        .execute(),
      "followedFromHere",
    );
    put(
      await db
        .selectFrom("follows")
        .innerJoin("accounts", "accounts.id", "follows.account_id")
        .select((eb) => ["accounts.domain", eb.fn.countAll<number | string>().as("n")])
        .where("accounts.domain", "in", domains)
        .groupBy("accounts.domain")
        .execute(),
      "followingHere",
    );
    put(
      await db
        .selectFrom("reports")
        .innerJoin("accounts", "accounts.id", "reports.target_account_id")
        .select((eb) => ["accounts.domain", eb.fn.countAll<number | string>().as("n")])
        .where("accounts.domain", "in", domains)
        .groupBy("accounts.domain")
        .execute(),
      "reports",
    );
    return out;
  }

  /** Deliveries to `host` in the database job queue (Fedify's outbox messages name their inbox). */
  async queuedDeliveries(jobName: string, host: string): Promise<QueuedDeliveries> {
    const h = escapeLike(host);
    const r = await this.#db
      .selectFrom("jobs")
      .select([
        sql<number | string>`SUM(CASE WHEN state = 'pending' AND attempts = 0 THEN 1 ELSE 0 END)`.as("waiting"),
        sql<number | string>`SUM(CASE WHEN state = 'pending' AND attempts > 0 THEN 1 ELSE 0 END)`.as("retrying"),
        sql<number | string>`SUM(CASE WHEN state = 'running' THEN 1 ELSE 0 END)`.as("running"),
      ])
      .where("name", "=", jobName)
      .where("state", "in", ["pending", "running"])
      .where(
        sql<boolean>`(payload LIKE ${`%"inbox":"https://${h}/%`} ESCAPE '\\' OR payload LIKE ${`%"inbox":"http://${h}/%`} ESCAPE '\\')`,
      )
      .executeTakeFirst();
    return { waiting: Number(r?.waiting ?? 0), retrying: Number(r?.retrying ?? 0), running: Number(r?.running ?? 0) };
  }
}
