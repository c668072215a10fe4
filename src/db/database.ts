import { join } from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import { type ChangeGroup, ChangeNotices } from "./change-notices.ts";
import { ChangeTracker } from "./change-tracker.ts";
import { runMigrations } from "./migrate.ts";
import { loadMigrations } from "./migrations/index.ts";
import { committingDialect } from "./pg-commits.ts";
import { registerReadNow } from "./repositories/query-shapes.ts";
import type { DB } from "./schema.ts";
import { NodeSqliteDialect } from "./sqlite-dialect.ts";

/** The embedded database's file inside DATA_DIR. */
export const SQLITE_FILE = "gannet.sqlite3";

export type DialectName = "sqlite" | "postgres";

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /**
   * A number that grows whenever the accounts, users, roles, tokens, follow requests or custom
   * emojis may have changed, through this process or any other (SQLite: `PRAGMA data_version`;
   * PostgreSQL: change notices on the event bus, `changes`); undefined while that cannot be known
   * (PostgreSQL before the notices' subscription is ready or while the bus is down), so callers
   * must not cache then. Read it before reading what is cached under it.
   */
  changeStamp(): number | undefined;
  /**
   * As `changeStamp`, for the tables whose changes are logged in `render_changes` (migration
   * 0024): while it stays the same, the log has no new rows.
   */
  renderChangeStamp(): number | undefined;
  /** As `changeStamp`, for the instance's domain blocks and allows (its federation policy). */
  domainPolicyStamp(): number | undefined;
  /**
   * As `changeStamp`, for the home and list feeds (and the statuses and accounts whose deletion
   * takes their entries with it): while it stays the same, a feed's page holds the same ids.
   */
  feedChangeStamp(): number | undefined;
  /**
   * As `changeStamp`, for notifications and conversations (services/notifications/kept-text.ts
   * keeps their pages while it and `renderChangeStamp` stay the same).
   */
  notificationChangeStamp(): number | undefined;
  /**
   * PostgreSQL: other processes' writes as they announce them, and this process's announcements
   * (infra/bus/change-notices.ts wires them to the event bus). Undefined on SQLite.
   */
  changes: ChangeNotices | undefined;
  /**
   * SQLite: another connection of this process (an inbox thread, src/inbox-threads/) has
   * just committed; the change stamps read `PRAGMA data_version` again at once instead of within
   * 2 ms. Nothing on PostgreSQL (its change notices cross threads on the bus).
   */
  sawOtherWriter(): void;
  /** Statements sent to PostgreSQL so far, each a round trip (BEGIN and COMMIT included); 0 on SQLite. */
  roundTrips(): number;
  /** Runs pending migrations; throws with the failing migration's name. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** SQLite file name inside dataDir (default `gannet.sqlite3`), or `:memory:`. */
  sqliteFile?: string;
  /** PostgreSQL: ms caches may go without a change notice (`DATABASE_CACHE_MAX_AGE`); 0 never caches. */
  cacheMaxAgeMs?: number;
  /** PostgreSQL schema to use (created when missing); tests give each server its own. */
  pgSchema?: string;
  pgPoolSize?: number;
  /**
   * PostgreSQL commits return before their WAL reaches the disk (`synchronous_commit = off`): a
   * crash may lose the last moments of commits but never leaves them half done. Only for test
   * databases, where a commit's fsync was most of a small request's time.
   */
  pgAsyncCommit?: boolean;
}

/**
 * Tables whose rows in-process caches hold under the change stamp: the token cache (accounts,
 * users, roles, tokens) and the kept CredentialAccount texts (also follow requests and emojis).
 */
// web_sessions: deleting a session deletes its web client token by cascade (migration 0050),
// which the tracker would not see on oauth_access_tokens itself. site_settings: kept web client
// pages (web/client/layout.ts) show what the operator set.
const CACHED_TABLES = [
  "accounts",
  "users",
  "user_roles",
  "oauth_access_tokens",
  "web_sessions",
  "follow_requests",
  "custom_emojis",
  "site_settings",
];

/** The materialised feeds, and the tables whose deletions cascade into them. */
const FEED_TABLES = ["feeds", "list_feeds", "statuses", "accounts"];

/** The tables of the instance's federation policy (InstanceDomainBlocksRepository caches it). */
const DOMAIN_POLICY_TABLES = ["domain_blocks", "domain_allows"];

/** Notifications and the conversations lists (their pages are kept: services/notifications/kept-text.ts). */
const NOTIFICATION_TABLES = ["notifications", "account_conversations", "account_conversation_statuses"];

/** Tables with triggers that write `render_changes` (migrations 0024 and 0027). */
const RENDER_TABLES = [
  "statuses",
  "media_attachments",
  "mentions",
  "statuses_tags",
  "accounts",
  "users",
  "filters",
  "filter_keywords",
  "filter_statuses",
  "favourites",
  "bookmarks",
  "status_pins",
  "conversation_mutes",
  "blocks",
  "mutes",
  "follows",
  "account_domain_blocks",
  "custom_emojis",
  "user_roles",
  "oauth_applications",
  "preview_cards",
  "preview_cards_statuses",
  "render_changes",
];

export function createDatabase(opts: DatabaseOptions): Database {
  let db: Kysely<DB>;
  let dialect: DialectName;
  const tracker = new ChangeTracker(CACHED_TABLES);
  const renderTracker = new ChangeTracker(RENDER_TABLES);
  const domainPolicyTracker = new ChangeTracker(DOMAIN_POLICY_TABLES);
  const feedTracker = new ChangeTracker(FEED_TABLES);
  const notificationTracker = new ChangeTracker(NOTIFICATION_TABLES);
  const plugins = [tracker, renderTracker, domainPolicyTracker, feedTracker, notificationTracker];
  const groups = new Map<ChangeTracker, ChangeGroup>([
    [tracker, "cached"],
    [renderTracker, "render"],
    [domainPolicyTracker, "domain"],
    [feedTracker, "feed"],
    [notificationTracker, "notification"],
  ]);
  let sqliteDialect: NodeSqliteDialect | undefined;
  let changes: ChangeNotices | undefined;
  const counter = { statements: 0 };
  if (opts.databaseUrl) {
    dialect = "postgres";
    const schema = opts.pgSchema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
    // pg is loaded only when PostgreSQL is used.
    const pool = async () => {
      const { default: pg } = await import("pg");
      return new pg.Pool({
        connectionString: opts.databaseUrl,
        max: opts.pgPoolSize ?? 10,
        options:
          [schema && `-c search_path=${schema}`, opts.pgAsyncCommit && "-c synchronous_commit=off"]
            .filter(Boolean)
            .join(" ") || undefined,
      });
    };
    const notices = new ChangeNotices(opts.cacheMaxAgeMs ?? 30_000);
    changes = notices;
    // A committed write counts once more here (see ChangeTracker.bump) and is announced.
    const committed = (touched: ReadonlySet<ChangeTracker>) => {
      for (const t of touched) t.bump();
      notices.committed([...touched].map((t) => groups.get(t) as ChangeGroup));
    };
    db = new Kysely<DB>({
      dialect: committingDialect(new PostgresDialect({ pool }), plugins, committed, counter),
      plugins,
    });
  } else {
    dialect = "sqlite";
    const file = opts.sqliteFile ?? SQLITE_FILE;
    sqliteDialect = new NodeSqliteDialect(file === ":memory:" ? file : join(opts.dataDir, file));
    db = new Kysely<DB>({ dialect: sqliteDialect, plugins });
    const reader = sqliteDialect;
    registerReadNow(db, (text, parameters) => reader.readNow(text, parameters));
  }

  // Both counters only grow, so their sum grows whenever either does.
  const stamp = (own: ChangeTracker, group: ChangeGroup): number | undefined => {
    const external = sqliteDialect ? sqliteDialect.dataVersion() : changes?.external(group);
    return external === undefined ? undefined : own.generation + external;
  };

  return {
    db,
    dialect,
    changeStamp: () => stamp(tracker, "cached"),
    renderChangeStamp: () => stamp(renderTracker, "render"),
    domainPolicyStamp: () => stamp(domainPolicyTracker, "domain"),
    feedChangeStamp: () => stamp(feedTracker, "feed"),
    notificationChangeStamp: () => stamp(notificationTracker, "notification"),
    changes,
    sawOtherWriter: () => sqliteDialect?.sawOtherWriter(),
    roundTrips: () => counter.statements,
    async migrate() {
      if (dialect === "postgres" && opts.pgSchema) {
        await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(opts.pgSchema)}`.execute(db);
      }
      await runMigrations(db as unknown as Kysely<unknown>, dialect, await loadMigrations());
    },
    async close() {
      await changes?.close();
      await db.destroy();
    },
  };
}

/** Case-insensitive equality that both dialects index (`lower(col) = lower(value)`). */
export function lowerEq(column: string, value: string) {
  return sql<boolean>`lower(${sql.ref(column)}) = ${value.toLowerCase()}`;
}
