import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { backup, DatabaseSync } from "node:sqlite";
import { childEnvironment } from "../config/index.ts";
import { SQLITE_FILE } from "./database.ts";

/**
 * Copies of the database that stay consistent while the server writes: SQLite's online backup
 * API (a plain copy of a WAL database can miss committed pages still in the -wal file), and
 * pg_dump / pg_restore for PostgreSQL, run without a shell and with the password in the
 * environment rather than on the command line (where `ps` would show it).
 */

/** The embedded database's file in a data directory. */
export const sqlitePath = (dataDir: string) => join(dataDir, SQLITE_FILE);

/** Copies a live SQLite database page by page into `dest`, a new file. */
export async function backupSqlite(source: string, dest: string): Promise<void> {
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  const db = new DatabaseSync(source, { timeout: 10_000 });
  try {
    // All pages in one step, so one read transaction: a step-wise copy starts over whenever the
    // server commits in between, and on a busy server might never finish. In WAL mode the read
    // does not hold the server's writes back.
    await backup(db, dest, { rate: 1_000_000_000 });
  } finally {
    db.close();
  }
  // The copy keeps the source's WAL mode; a rollback-journal file is one self-contained file.
  const copy = new DatabaseSync(dest);
  try {
    copy.exec("PRAGMA journal_mode = DELETE");
  } finally {
    copy.close();
  }
}

/** The newest migration recorded in a SQLite file, or undefined when it has none. */
export function sqliteLastMigration(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const db = new DatabaseSync(file, { readOnly: true, timeout: 10_000 });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'gannet_migrations'").get();
    if (!table) return undefined;
    const row = db.prepare("SELECT max(name) AS name FROM gannet_migrations").get() as { name: string | null };
    return row.name ?? undefined;
  } finally {
    db.close();
  }
}

/** Whether a SQLite file holds any table: a restore over it needs --force. */
export function sqliteHasTables(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new DatabaseSync(file, { readOnly: true, timeout: 10_000 });
  try {
    return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").get() !== undefined;
  } finally {
    db.close();
  }
}

/** How to reach a PostgreSQL database with libpq's tools: PG* variables, never a shell string. */
export interface PgTarget {
  /** libpq's variables for the tool (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE...). */
  libpq: Record<string, string>;
  database: string;
  /** The schema named by `options=-c search_path=...` in the URL: Gannet's tables live there. */
  schema?: string;
}

export function pgTarget(databaseUrl: string): PgTarget {
  const u = new URL(databaseUrl);
  const libpq: Record<string, string> = {};
  const database = decodeURIComponent(u.pathname.replace(/^\//, "")) || decodeURIComponent(u.username) || "postgres";
  if (u.hostname) libpq.PGHOST = decodeURIComponent(u.hostname).replace(/^\[|\]$/g, "");
  if (u.port) libpq.PGPORT = u.port;
  if (u.username) libpq.PGUSER = decodeURIComponent(u.username);
  if (u.password) libpq.PGPASSWORD = decodeURIComponent(u.password);
  libpq.PGDATABASE = database;
  const host = u.searchParams.get("host");
  if (host) libpq.PGHOST = host;
  const sslmode = u.searchParams.get("sslmode");
  if (sslmode) libpq.PGSSLMODE = sslmode === "no-verify" ? "require" : sslmode;
  else if (u.searchParams.get("ssl") === "true") libpq.PGSSLMODE = "require";
  const options = u.searchParams.get("options");
  let schema: string | undefined;
  if (options) {
    libpq.PGOPTIONS = options;
    const m = /search_path\s*=\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(options);
    schema = m?.[1];
  }
  return { libpq, database, schema };
}

function run(command: string, args: string[], libpq: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: childEnvironment(libpq), maxBuffer: 16 * 1024 * 1024 }, (err, _out, stderr) => {
      if (!err) return resolve();
      const why = stderr.trim() || err.message;
      reject(new Error(`${command} failed: ${why}`));
    });
  });
}

/** `pg_dump --format=custom` of Gannet's schema (or the whole database) into `dest`. */
export async function pgDump(databaseUrl: string, dest: string, binary = "pg_dump"): Promise<void> {
  const t = pgTarget(databaseUrl);
  const args = ["--format=custom", "--no-owner", "--no-privileges", `--file=${dest}`];
  if (t.schema) args.push(`--schema=${t.schema}`);
  await run(binary, args, t.libpq);
}

/** `pg_restore` of a custom-format dump; `clean` drops what the dump creates first. */
export async function pgRestore(
  databaseUrl: string,
  file: string,
  clean: boolean,
  binary = "pg_restore",
): Promise<void> {
  const t = pgTarget(databaseUrl);
  // The database name alone (the PG* variables carry the rest): a name is never taken as a conninfo.
  const args = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${t.database}`];
  if (clean) args.push("--clean", "--if-exists");
  args.push(file);
  await run(binary, args, t.libpq);
}

async function withPg<T>(databaseUrl: string, fn: (q: (text: string) => Promise<unknown[]>) => Promise<T>): Promise<T> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(async (text) => (await client.query(text)).rows);
  } finally {
    await client.end();
  }
}

/** The newest migration recorded in the PostgreSQL database, or undefined when it has none. */
export function pgLastMigration(databaseUrl: string): Promise<string | undefined> {
  return withPg(databaseUrl, async (q) => {
    const [t] = (await q("SELECT to_regclass('gannet_migrations') IS NOT NULL AS present")) as { present: boolean }[];
    if (!t?.present) return undefined;
    const [row] = (await q("SELECT max(name) AS name FROM gannet_migrations")) as { name: string | null }[];
    return row?.name ?? undefined;
  });
}

/** Whether Gannet's tables already exist where DATABASE_URL points: a restore over them needs --force. */
export function pgHasTables(databaseUrl: string): Promise<boolean> {
  return withPg(databaseUrl, async (q) => {
    const [t] = (await q("SELECT to_regclass('gannet_migrations') IS NOT NULL AS present")) as { present: boolean }[];
    return t?.present === true;
  });
}
