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
  /** Days on which deliveries could not reach the server since it last answered. */
  failureDays: number;
  /** Marked unavailable then (seven failure days): nothing is sent to it. */
  unavailableSince: string | null;
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
  /** The server answered in the batch (2xx or 4xx): it is reachable. */
  reached: boolean;
  /** The latest failure to reach it (no answer, 5xx) after the batch's last answer, if any. */
  unreachableAt: string | null;
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
  failureDays: Number(r.failure_days),
  unavailableSince: r.unavailable_since,
});

/** Days of failure after which a server is unavailable (Mastodon's DeliveryFailureTracker). */
export const UNAVAILABLE_AFTER_DAYS = 7;

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
    await this.#recordAvailability(deltas);
  }

  /**
   * Mastodon's failure days: a server that answered forgets them (and is available again); a
   * failure to reach it counts its UTC day once; the seventh such day marks it unavailable.
   */
  async #recordAvailability(deltas: HealthDelta[]): Promise<void> {
    const reached = deltas.filter((d) => d.reached).map((d) => d.domain);
    if (reached.length > 0) {
      await this.#db
        .updateTable("delivery_health")
        .set({ failure_days: 0, last_failure_day: null, unavailable_since: null })
        .where("domain", "in", reached)
        .where((eb) => eb.or([eb("failure_days", ">", 0), eb("unavailable_since", "is not", null)]))
        .execute();
    }
    const byDay = new Map<string, { at: string; domains: string[] }>();
    for (const d of deltas) {
      if (!d.unreachableAt) continue;
      const day = d.unreachableAt.slice(0, 10);
      const e = byDay.get(day) ?? { at: d.unreachableAt, domains: [] };
      if (d.unreachableAt > e.at) e.at = d.unreachableAt;
      e.domains.push(d.domain);
      byDay.set(day, e);
    }
    for (const [day, { at, domains }] of byDay) {
      const days = sql<number>`CASE WHEN last_failure_day = ${day} THEN failure_days ELSE failure_days + 1 END`;
      await this.#db
        .updateTable("delivery_health")
        .set({
          failure_days: days,
          last_failure_day: day,
          unavailable_since: sql`CASE WHEN unavailable_since IS NULL AND ${days} >= ${UNAVAILABLE_AFTER_DAYS}
            THEN ${at} ELSE unavailable_since END`,
        })
        .where("domain", "in", domains)
        // A day earlier than the last counted (a late note from another process) changes nothing.
        .where((eb) => eb.or([eb("last_failure_day", "is", null), eb("last_failure_day", "<=", day)]))
        .execute();
    }
  }

  /** Servers unavailable or failing for a day or more, unavailable first, then by failure days. */
  async notReached(limit: number): Promise<DeliveryHealth[]> {
    const rows = await this.#db
      .selectFrom("delivery_health")
      .selectAll()
      .where((eb) => eb.or([eb("failure_days", ">", 0), eb("unavailable_since", "is not", null)]))
      .orderBy(sql`CASE WHEN unavailable_since IS NULL THEN 1 ELSE 0 END`)
      .orderBy("failure_days", "desc")
      .orderBy("domain")
      .limit(limit)
      .execute();
    return rows.map(toHealth);
  }

  /** The servers marked unavailable. */
  async unavailableDomains(): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("delivery_health")
      .select("domain")
      .where("unavailable_since", "is not", null)
      .execute();
    return rows.map((r) => r.domain);
  }

  /** Forgets the failure days of a server and makes it available (an activity came from it; an administrator). */
  async markAvailable(domain: string): Promise<boolean> {
    const r = await this.#db
      .updateTable("delivery_health")
      .set({ failure_days: 0, last_failure_day: null, unavailable_since: null })
      .where("domain", "=", domain)
      .where((eb) => eb.or([eb("failure_days", ">", 0), eb("unavailable_since", "is not", null)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
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
