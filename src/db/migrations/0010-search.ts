import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Full-text search over statuses and accounts, kept in step by the database itself so no service
 * has to remember it.
 *
 * SQLite: FTS5 tables with external content (the text lives only in `statuses` and `accounts`).
 * `statuses_fts` indexes the `text` and `spoiler_text` of live posts (boosts and tombstones are
 * left out); `accounts_fts` the display name, username and domain of every account. Triggers
 * add, replace and remove entries as rows are inserted, edited, tombstoned and deleted; an
 * external-content entry must be removed with exactly the values it was added with, which the
 * triggers' `old` row gives.
 *
 * PostgreSQL: GIN indexes on `to_tsvector('simple', ...)` expressions; the repository queries
 * the very same expressions (see `src/db/repositories/search.ts`).
 */

const STATUS_INDEXED = (row: "new" | "old") => `${row}.reblog_of_id IS NULL AND ${row}.deleted_at IS NULL`;

const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`CREATE VIRTUAL TABLE statuses_fts USING fts5(text, spoiler_text,
    content='statuses', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`);
  await run(`CREATE TRIGGER statuses_fts_insert AFTER INSERT ON statuses BEGIN
    INSERT INTO statuses_fts(rowid, text, spoiler_text) SELECT new.id, new.text, new.spoiler_text
      WHERE ${STATUS_INDEXED("new")};
  END`);
  await run(`CREATE TRIGGER statuses_fts_delete AFTER DELETE ON statuses BEGIN
    INSERT INTO statuses_fts(statuses_fts, rowid, text, spoiler_text)
      SELECT 'delete', old.id, old.text, old.spoiler_text WHERE ${STATUS_INDEXED("old")};
  END`);
  await run(`CREATE TRIGGER statuses_fts_update
    AFTER UPDATE OF text, spoiler_text, deleted_at, reblog_of_id ON statuses BEGIN
    INSERT INTO statuses_fts(statuses_fts, rowid, text, spoiler_text)
      SELECT 'delete', old.id, old.text, old.spoiler_text WHERE ${STATUS_INDEXED("old")};
    INSERT INTO statuses_fts(rowid, text, spoiler_text) SELECT new.id, new.text, new.spoiler_text
      WHERE ${STATUS_INDEXED("new")};
  END`);
  await run(`INSERT INTO statuses_fts(rowid, text, spoiler_text)
    SELECT id, text, spoiler_text FROM statuses WHERE reblog_of_id IS NULL AND deleted_at IS NULL`);

  await run(`CREATE VIRTUAL TABLE accounts_fts USING fts5(display_name, username, domain,
    content='accounts', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`);
  await run(`CREATE TRIGGER accounts_fts_insert AFTER INSERT ON accounts BEGIN
    INSERT INTO accounts_fts(rowid, display_name, username, domain)
      VALUES (new.id, new.display_name, new.username, new.domain);
  END`);
  await run(`CREATE TRIGGER accounts_fts_delete AFTER DELETE ON accounts BEGIN
    INSERT INTO accounts_fts(accounts_fts, rowid, display_name, username, domain)
      VALUES ('delete', old.id, old.display_name, old.username, old.domain);
  END`);
  await run(`CREATE TRIGGER accounts_fts_update AFTER UPDATE OF display_name, username, domain ON accounts BEGIN
    INSERT INTO accounts_fts(accounts_fts, rowid, display_name, username, domain)
      VALUES ('delete', old.id, old.display_name, old.username, old.domain);
    INSERT INTO accounts_fts(rowid, display_name, username, domain)
      VALUES (new.id, new.display_name, new.username, new.domain);
  END`);
  await run(`INSERT INTO accounts_fts(rowid, display_name, username, domain)
    SELECT id, display_name, username, domain FROM accounts`);
}

/**
 * Not partial on purpose: the planner uses the statistics ANALYZE gathers on an expression index
 * only when the index has no predicate. Without them every word is estimated at 0.5% of the rows,
 * and a rare word makes it walk the whole table newest first, computing `to_tsvector` for each
 * row (measured: 1.2-1.8 s on 200,000 statuses; with statistics, 1-20 ms). A larger statistics
 * target keeps more words in those statistics, so a word that is not among them is estimated
 * rarer and found through the index.
 */
async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX statuses_search ON statuses
    USING gin (to_tsvector('simple', text || ' ' || spoiler_text))`.execute(db);
  await sql`ALTER INDEX statuses_search ALTER COLUMN 1 SET STATISTICS 1000`.execute(db);
  await sql`CREATE INDEX accounts_search ON accounts
    USING gin (to_tsvector('simple', display_name || ' ' || username || ' ' || coalesce(domain, '')))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP INDEX IF EXISTS statuses_search`.execute(db);
    await sql`DROP INDEX IF EXISTS accounts_search`.execute(db);
    return;
  }
  for (const t of [
    "statuses_fts_insert",
    "statuses_fts_delete",
    "statuses_fts_update",
    "accounts_fts_insert",
    "accounts_fts_delete",
    "accounts_fts_update",
  ]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(t)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS statuses_fts`.execute(db);
  await sql`DROP TABLE IF EXISTS accounts_fts`.execute(db);
}
