import { type Kysely, type RawBuilder, sql } from "kysely";
import { idAtTime } from "../../lib/ids.ts";
import type { DialectName } from "../database.ts";
import type { DB } from "../schema.ts";

/**
 * What a dashboard measure counts: each source is a set of rows with a time (`at`, ISO text), a
 * key (`k`, for distinct counts) and a value (`v`, for sums). See docs/moderation.md, "Dashboard
 * and hashtags", for what each one means.
 */
export type MetricSource =
  | { kind: "newUsers" }
  | { kind: "activeUsers" }
  | { kind: "interactions" }
  | { kind: "openedReports" }
  | { kind: "resolvedReports" }
  | { kind: "tagUses"; tagId: string }
  | { kind: "tagAccounts"; tagId: string }
  | { kind: "tagServers"; tagId: string }
  | { kind: "instanceAccounts"; domain: DomainScope }
  | { kind: "instanceMedia"; domain: DomainScope }
  | { kind: "instanceReports"; domain: DomainScope }
  | { kind: "instanceStatuses"; domain: DomainScope }
  | { kind: "instanceFollows"; domain: DomainScope }
  | { kind: "instanceFollowers"; domain: DomainScope };

/** A remote server, with or without its subdomains. */
export interface DomainScope {
  domain: string;
  includeSubdomains: boolean;
}

/** How a source's rows are totalled: rows, distinct keys, or the sum of values. */
type Aggregate = "count" | "distinct" | "sum";

/** Days, as `YYYY-MM-DD`: `from` inclusive, `until` exclusive. */
export interface DayRange {
  from: string;
  until: string;
}

/** One row of a breakdown: its key and count. */
export interface DimensionRow {
  key: string | null;
  value: number;
}

/** A user who signed up, with when they were last seen doing anything (ISO text, null if never). */
export interface CohortMember {
  createdAt: string;
  lastActiveAt: string | null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `accounts` alias `a` is on the server (or one of its subdomains). */
function onDomain(scope: DomainScope): RawBuilder<boolean> {
  const domain = scope.domain.toLowerCase();
  if (!scope.includeSubdomains) return sql<boolean>`a.domain = ${domain}`;
  return sql<boolean>`(a.domain = ${domain} OR a.domain LIKE ${`%.${escapeLike(domain)}`} ESCAPE '\\')`;
}

/**
 * A lower bound on the ids of the posts of a range, so that PostgreSQL and SQLite read only the
 * recent end of `statuses` by its primary key: a post's id is made from its creation (or, from
 * another server, publication) time, never earlier; a day of slack covers clocks that disagree.
 */
function statusFloor(range: DayRange | undefined): RawBuilder<boolean> {
  if (range === undefined) return sql<boolean>`1 = 1`;
  return sql<boolean>`s.id >= ${idAtTime(new Date(Date.parse(`${range.from}T00:00:00Z`) - 86_400_000))}`;
}

/** The rows a source counts (those of `range` and maybe a few more), and how. */
function source(s: MetricSource, range?: DayRange): { rows: RawBuilder<unknown>; agg: Aggregate } {
  const floor = statusFloor(range);
  switch (s.kind) {
    case "newUsers":
      return { rows: sql`SELECT created_at AS at, id AS k, 1 AS v FROM users`, agg: "count" };
    case "activeUsers":
      // Local users who posted, favourited, signed in, or used an app (a token's creation and last use).
      return {
        rows: sql`SELECT s.created_at AS at, s.account_id AS k, 1 AS v FROM statuses s
            JOIN users u ON u.account_id = s.account_id WHERE ${floor}
          UNION ALL SELECT f.created_at, f.account_id, 1 FROM favourites f JOIN users u ON u.account_id = f.account_id
          UNION ALL SELECT current_sign_in_at, account_id, 1 FROM users WHERE current_sign_in_at IS NOT NULL
          UNION ALL SELECT last_sign_in_at, account_id, 1 FROM users WHERE last_sign_in_at IS NOT NULL
          UNION ALL SELECT ui.used_at, u.account_id, 1 FROM user_ips ui JOIN users u ON u.id = ui.user_id
          UNION ALL SELECT t.created_at, u.account_id, 1 FROM oauth_access_tokens t JOIN users u ON u.id = t.user_id
          UNION ALL SELECT t.last_used_at, u.account_id, 1 FROM oauth_access_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.last_used_at IS NOT NULL`,
        agg: "distinct",
      };
    case "interactions":
      // What Mastodon's activity tracker counts, by local accounts: favourites, boosts, replies to
      // someone else, follows and follow requests, poll votes (one per poll).
      return {
        rows: sql`SELECT f.created_at AS at, f.id AS k, 1 AS v FROM favourites f
            JOIN accounts a ON a.id = f.account_id WHERE a.domain IS NULL
          UNION ALL SELECT s.created_at, s.id, 1 FROM statuses s JOIN accounts a ON a.id = s.account_id
            WHERE a.domain IS NULL AND s.reblog_of_id IS NOT NULL AND ${floor}
          UNION ALL SELECT s.created_at, s.id, 1 FROM statuses s JOIN accounts a ON a.id = s.account_id
            WHERE a.domain IS NULL AND s.reblog_of_id IS NULL AND s.in_reply_to_account_id IS NOT NULL
              AND s.in_reply_to_account_id <> s.account_id AND ${floor}
          UNION ALL SELECT f.created_at, f.id, 1 FROM follows f JOIN accounts a ON a.id = f.account_id
            WHERE a.domain IS NULL
          UNION ALL SELECT f.created_at, f.id, 1 FROM follow_requests f JOIN accounts a ON a.id = f.account_id
            WHERE a.domain IS NULL
          UNION ALL SELECT min(pv.created_at), min(pv.id), 1 FROM poll_votes pv JOIN accounts a ON a.id = pv.account_id
            WHERE a.domain IS NULL GROUP BY pv.poll_id, pv.account_id`,
        agg: "count",
      };
    case "openedReports":
      return { rows: sql`SELECT created_at AS at, id AS k, 1 AS v FROM reports`, agg: "count" };
    case "resolvedReports":
      return {
        rows: sql`SELECT action_taken_at AS at, id AS k, 1 AS v FROM reports WHERE action_taken_at IS NOT NULL`,
        agg: "count",
      };
    case "tagUses":
    case "tagAccounts":
    case "tagServers": {
      // Uses and accounts as the tag's history counts them (live public posts); servers from every live post.
      const publicOnly = s.kind === "tagServers" ? sql`` : sql`AND s.visibility = 'public'`;
      const key = { tagUses: sql`s.id`, tagAccounts: sql`s.account_id`, tagServers: sql`COALESCE(a.domain, '')` }[
        s.kind
      ];
      return {
        rows: sql`SELECT s.created_at AS at, ${key} AS k, 1 AS v FROM statuses_tags st
          JOIN statuses s ON s.id = st.status_id JOIN accounts a ON a.id = s.account_id
          WHERE st.tag_id = ${s.tagId} AND s.deleted_at IS NULL ${publicOnly} AND ${floor}`,
        agg: s.kind === "tagUses" ? "count" : "distinct",
      };
    }
    case "instanceAccounts":
      return {
        rows: sql`SELECT a.created_at AS at, a.id AS k, 1 AS v FROM accounts a WHERE ${onDomain(s.domain)}`,
        agg: "count",
      };
    case "instanceMedia":
      return {
        rows: sql`SELECT m.created_at AS at, m.id AS k, COALESCE(m.file_size, 0) AS v FROM media_attachments m
          JOIN accounts a ON a.id = m.account_id WHERE ${onDomain(s.domain)}`,
        agg: "sum",
      };
    case "instanceReports":
      return {
        rows: sql`SELECT r.created_at AS at, r.id AS k, 1 AS v FROM reports r
          JOIN accounts a ON a.id = r.target_account_id WHERE ${onDomain(s.domain)}`,
        agg: "count",
      };
    case "instanceStatuses":
      return {
        rows: sql`SELECT s.created_at AS at, s.id AS k, 1 AS v FROM statuses s
          JOIN accounts a ON a.id = s.account_id WHERE ${onDomain(s.domain)} AND s.deleted_at IS NULL AND ${floor}`,
        agg: "count",
      };
    case "instanceFollows":
      return {
        rows: sql`SELECT f.created_at AS at, f.id AS k, 1 AS v FROM follows f
          JOIN accounts a ON a.id = f.target_account_id WHERE ${onDomain(s.domain)}`,
        agg: "count",
      };
    case "instanceFollowers":
      return {
        rows: sql`SELECT f.created_at AS at, f.id AS k, 1 AS v FROM follows f
          JOIN accounts a ON a.id = f.account_id WHERE ${onDomain(s.domain)}`,
        agg: "count",
      };
  }
}

const aggregate = (agg: Aggregate): RawBuilder<number | string> =>
  agg === "count" ? sql`count(*)` : agg === "distinct" ? sql`count(DISTINCT k)` : sql`COALESCE(SUM(v), 0)`;

const inRange = (range: DayRange | undefined): RawBuilder<boolean> =>
  range === undefined ? sql`at IS NOT NULL` : sql`at >= ${range.from} AND at < ${range.until}`;

const limitClause = (limit: number) => sql`LIMIT ${sql.lit(Math.max(0, Math.floor(limit)))}`;

/** The queries of the admin dashboard: measures, dimensions and retention (Mastodon's Admin::Metrics). */
export class AdminMetricsRepository {
  readonly #db: Kysely<DB>;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /** The source's total over the days (all time without `range`). */
  async total(s: MetricSource, range?: DayRange): Promise<number> {
    const { rows, agg } = source(s, range);
    const r = await sql<{ n: number | string | null }>`SELECT ${aggregate(agg)} AS n FROM (${rows}) src
      WHERE ${inRange(range)}`.execute(this.#db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** The source's figure for each day of the range that has any (`YYYY-MM-DD` → figure). */
  async daily(s: MetricSource, range: DayRange): Promise<Map<string, number>> {
    const { rows, agg } = source(s, range);
    const r = await sql<{ day: string; n: number | string }>`SELECT substr(at, 1, 10) AS day, ${aggregate(agg)} AS n
      FROM (${rows}) src WHERE ${inRange(range)} GROUP BY substr(at, 1, 10)`.execute(this.#db);
    return new Map(r.rows.map((row) => [row.day, Number(row.n)]));
  }

  /** Whether a tag of this id exists. */
  async tagExists(id: string): Promise<boolean> {
    const r = await this.#db.selectFrom("tags").select("id").where("id", "=", id).executeTakeFirst();
    return r !== undefined;
  }

  // Dimensions: the biggest groups first, then by key.

  async #grouped(query: RawBuilder<unknown>, limit: number): Promise<DimensionRow[]> {
    const r = await sql<{ key: string | null; n: number | string }>`SELECT key, count(*) AS n FROM (${query}) g
      GROUP BY key ORDER BY count(*) DESC, key ${limitClause(limit)}`.execute(this.#db);
    return r.rows.map((row) => ({ key: row.key, value: Number(row.n) }));
  }

  /** Locales of the users who signed in during the days. */
  signInLocales(range: DayRange, limit: number): Promise<DimensionRow[]> {
    return this.#grouped(
      sql`SELECT locale AS key FROM users WHERE current_sign_in_at >= ${range.from}
        AND current_sign_in_at < ${range.until} AND locale IS NOT NULL AND locale <> ''`,
      limit,
    );
  }

  /** The applications users signed up with during the days (null: the web sign-up form). */
  signUpApplications(range: DayRange, limit: number): Promise<DimensionRow[]> {
    return this.#grouped(
      sql`SELECT o.name AS key FROM users u LEFT JOIN oauth_applications o ON o.id = u.created_by_application_id
        WHERE u.created_at >= ${range.from} AND u.created_at < ${range.until}`,
      limit,
    );
  }

  /** Servers of the live posts of the days (null: this server), of one tag when given. */
  statusServers(range: DayRange, limit: number, tagId?: string): Promise<DimensionRow[]> {
    const tag =
      tagId === undefined
        ? sql``
        : sql`AND EXISTS (SELECT 1 FROM statuses_tags st
      WHERE st.status_id = s.id AND st.tag_id = ${tagId})`;
    return this.#grouped(
      sql`SELECT a.domain AS key FROM statuses s JOIN accounts a ON a.id = s.account_id
        WHERE s.created_at >= ${range.from} AND s.created_at < ${range.until} AND s.deleted_at IS NULL ${tag}
          AND ${statusFloor(range)}`,
      limit,
    );
  }

  /** Languages (`und` when unknown) of the live posts of the days using a tag. */
  tagLanguages(range: DayRange, limit: number, tagId: string): Promise<DimensionRow[]> {
    return this.#grouped(
      sql`SELECT COALESCE(s.language, 'und') AS key FROM statuses s JOIN statuses_tags st ON st.status_id = s.id
        WHERE st.tag_id = ${tagId} AND s.created_at >= ${range.from} AND s.created_at < ${range.until}
          AND s.deleted_at IS NULL AND ${statusFloor(range)}`,
      limit,
    );
  }

  /** Languages of a server's live posts (boosts left out) of the days. */
  instanceLanguages(range: DayRange, limit: number, domain: DomainScope): Promise<DimensionRow[]> {
    return this.#grouped(
      sql`SELECT COALESCE(s.language, 'und') AS key FROM statuses s JOIN accounts a ON a.id = s.account_id
        WHERE ${onDomain(domain)} AND s.created_at >= ${range.from} AND s.created_at < ${range.until}
          AND s.deleted_at IS NULL AND s.reblog_of_id IS NULL AND ${statusFloor(range)}`,
      limit,
    );
  }

  /** A server's accounts by how many follows they have here (any time). */
  async instanceAccountFollowers(domain: DomainScope, limit: number): Promise<DimensionRow[]> {
    const r = await sql<{ key: string; n: number | string }>`SELECT a.username AS key, count(f.id) AS n
      FROM accounts a LEFT JOIN follows f ON f.target_account_id = a.id WHERE ${onDomain(domain)}
      GROUP BY a.id, a.username ORDER BY count(f.id) DESC, a.username ${limitClause(limit)}`.execute(this.#db);
    return r.rows.map((row) => ({ key: row.key, value: Number(row.n) }));
  }

  /** Bytes of stored media: attachments and custom emojis. */
  async mediaBytes(): Promise<number> {
    const r = await sql<{ n: number | string | null }>`SELECT
      (SELECT COALESCE(SUM(file_size), 0) FROM media_attachments)
      + (SELECT COALESCE(SUM(image_file_size), 0) FROM custom_emojis) AS n`.execute(this.#db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** The database's size in bytes. */
  async databaseBytes(): Promise<number> {
    const q =
      this.#dialect === "postgres"
        ? sql<{ n: number | string }>`SELECT pg_database_size(current_database()) AS n`
        : sql<{ n: number | string }>`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`;
    const r = await q.execute(this.#db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** The database engine's version. */
  async databaseVersion(): Promise<string> {
    const q =
      this.#dialect === "postgres"
        ? sql<{ v: string }>`SELECT current_setting('server_version') AS v`
        : sql<{ v: string }>`SELECT sqlite_version() AS v`;
    const r = await q.execute(this.#db);
    return String(r.rows[0]?.v ?? "").split(" ")[0] ?? "";
  }

  // Retention

  /** Users who signed up during the days, with their latest activity (as `activeUsers` counts it). */
  async cohort(range: DayRange): Promise<CohortMember[]> {
    const r = await sql<Record<string, string | null>>`SELECT
        u.created_at, u.current_sign_in_at, u.last_sign_in_at,
        (SELECT max(used_at) FROM user_ips WHERE user_id = u.id) AS ip_at,
        (SELECT max(created_at) FROM statuses WHERE account_id = u.account_id) AS status_at,
        (SELECT max(created_at) FROM favourites WHERE account_id = u.account_id) AS favourite_at,
        (SELECT max(COALESCE(last_used_at, created_at)) FROM oauth_access_tokens WHERE user_id = u.id) AS token_at
      FROM users u WHERE u.created_at >= ${range.from} AND u.created_at < ${range.until}`.execute(this.#db);
    return r.rows.map((row) => {
      const seen = [
        row.current_sign_in_at,
        row.last_sign_in_at,
        row.ip_at,
        row.status_at,
        row.favourite_at,
        row.token_at,
      ].filter((x): x is string => typeof x === "string" && x !== "");
      return { createdAt: String(row.created_at), lastActiveAt: seen.sort().at(-1) ?? null };
    });
  }
}
