// The benchmark's own view of the server's database: a fresh PostgreSQL database per run (dropped
// afterwards), and a connection for the harness (how many feeds hold a status, how many jobs
// wait, when a periodic task last ran; and making one due), on SQLite or PostgreSQL.
import { DatabaseSync, type StatementSync } from "node:sqlite";

export interface BenchDatabase {
  /** "SQLite (node:sqlite, WAL)" or "PostgreSQL 15.x". */
  label: string;
  /** DATABASE_URL for the server ("" for SQLite in DATA_DIR). */
  serverUrl: string;
  /** Opens the reading connection (after the data exists). */
  open(dataDir: string): Promise<void>;
  /** Entries for `statusId` in home feeds other than `authorId`'s. */
  feedCount(statusId: string, authorId: string): Promise<number>;
  /** Background jobs of this name not finished yet. */
  pendingJobs(name: string): Promise<number>;
  /** A periodic task's lease (scheduler_leases), or undefined before the scheduler has seen it. */
  lease(name: string): Promise<Lease | undefined>;
  /** Moves a periodic task's next run (the scheduler takes it at its next tick once due). */
  setNextRun(name: string, at: Date): Promise<void>;
  close(): Promise<void>;
}

export interface Lease {
  /** When the latest run began (ISO, the server's clock); null before the first. */
  lastRunAt: string | null;
  /** Set while a process runs the task; null once it is over. */
  lockedUntil: string | null;
}

const LEASE_SQL = "SELECT last_run_at, locked_until FROM scheduler_leases WHERE name = ";
const NEXT_RUN_SQL = "UPDATE scheduler_leases SET next_run_at = ";

function toLease(row: Record<string, unknown> | undefined): Lease | undefined {
  if (!row) return undefined;
  return {
    lastRunAt: (row.last_run_at as string | null) ?? null,
    lockedUntil: (row.locked_until as string | null) ?? null,
  };
}

export function sqliteDatabase(): BenchDatabase {
  let db: DatabaseSync | undefined;
  let feeds: StatementSync | undefined;
  let jobs: StatementSync | undefined;
  let writer: DatabaseSync | undefined;
  return {
    label: "SQLite (node:sqlite, WAL)",
    serverUrl: "",
    async open(dataDir) {
      db = new DatabaseSync(`${dataDir}/gannet.sqlite3`, { readOnly: true });
      db.exec("PRAGMA busy_timeout = 5000");
      feeds = db.prepare("SELECT count(*) AS n FROM feeds WHERE status_id = ? AND account_id <> ?");
      jobs = db.prepare("SELECT count(*) AS n FROM jobs WHERE name = ? AND state <> 'dead'");
      // The one write (a task's next run) goes through a connection of its own.
      writer = new DatabaseSync(`${dataDir}/gannet.sqlite3`);
      writer.exec("PRAGMA busy_timeout = 5000");
    },
    async feedCount(statusId, authorId) {
      if (!feeds) throw new Error("database not opened");
      return Number((feeds.get(BigInt(statusId), BigInt(authorId)) as { n: number }).n);
    },
    async pendingJobs(name) {
      if (!jobs) throw new Error("database not opened");
      return Number((jobs.get(name) as { n: number }).n);
    },
    async lease(name) {
      if (!db) throw new Error("database not opened");
      return toLease(db.prepare(`${LEASE_SQL}?`).get(name) as Record<string, unknown> | undefined);
    },
    async setNextRun(name, at) {
      if (!writer) throw new Error("database not opened");
      writer.prepare(`${NEXT_RUN_SQL}? WHERE name = ?`).run(at.toISOString(), name);
    },
    async close() {
      db?.close();
      writer?.close();
      db = undefined;
      writer = undefined;
    },
  };
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function pgClient(url: string): Promise<PgClient> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url }) as unknown as PgClient;
  await client.connect();
  return client;
}

/** A database of its own on the server of `adminUrl`, created now and dropped by `close()`. */
export async function postgresDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `gannet_bench_${process.pid}_${Date.now()}`;
  const admin = await pgClient(adminUrl);
  let version = "";
  try {
    version = String((await admin.query("SHOW server_version")).rows[0].server_version);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let reader: PgClient | undefined;
  return {
    label: `PostgreSQL ${version.split(" ")[0]}`,
    serverUrl: url.toString(),
    async open() {
      reader = await pgClient(url.toString());
    },
    async feedCount(statusId, authorId) {
      if (!reader) throw new Error("database not opened");
      const r = await reader.query("SELECT count(*) AS n FROM feeds WHERE status_id = $1 AND account_id <> $2", [
        statusId,
        authorId,
      ]);
      return Number(r.rows[0].n);
    },
    async pendingJobs(jobName) {
      if (!reader) throw new Error("database not opened");
      const r = await reader.query("SELECT count(*) AS n FROM jobs WHERE name = $1 AND state <> 'dead'", [jobName]);
      return Number(r.rows[0].n);
    },
    async lease(taskName) {
      if (!reader) throw new Error("database not opened");
      return toLease((await reader.query(`${LEASE_SQL}$1`, [taskName])).rows[0]);
    },
    async setNextRun(taskName, at) {
      if (!reader) throw new Error("database not opened");
      await reader.query(`${NEXT_RUN_SQL}$1 WHERE name = $2`, [at.toISOString(), taskName]);
    },
    async close() {
      await reader?.end();
      reader = undefined;
      const again = await pgClient(adminUrl);
      try {
        await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await again.end();
      }
    },
  };
}
