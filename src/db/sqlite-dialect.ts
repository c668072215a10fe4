import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { inBackground } from "../lib/background.ts";
import { acquireWriteLock, releaseWriteLock, writeLockInUse } from "../lib/sqlite-write-lock.ts";
import { type Checkpointer, startCheckpointer } from "./sqlite-checkpointer.ts";
import { type Pad, padInLists, padParameters } from "./sqlite-in-lists.ts";

/**
 * Kysely dialect for Node's built-in `node:sqlite`.
 *
 * - One connection, guarded by a mutex: Kysely holds it for a whole transaction, so statements
 *   of concurrent requests never interleave with an open transaction.
 * - Prepared statements are cached by SQL text (the hot paths repeat the same few queries).
 * - Integers are read as BigInt and handed back as numbers when safe, otherwise as decimal
 *   strings: IDs (always above 2^53) come back as strings, as on PostgreSQL.
 * - Booleans and Dates are bound as 1/0 and ISO strings.
 */
export class NodeSqliteDialect implements Dialect {
  readonly #path: string;
  #driver?: NodeSqliteDriver;
  constructor(path: string) {
    this.#path = path;
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    this.#driver = new NodeSqliteDriver(this.#path);
    return this.#driver;
  }
  /**
   * SQLite's `PRAGMA data_version`: changes whenever another connection (another process, such
   * as the `gannet` command) commits to the database. Undefined before the first query.
   */
  dataVersion(): number | undefined {
    return this.#driver?.dataVersion();
  }
  /** Another connection of this process committed: `dataVersion` reads the pragma again at its next call. */
  sawOtherWriter(): void {
    this.#driver?.sawOtherWriter();
  }
  /**
   * The rows of a read run at once, synchronously, when the connection is free (no statement nor
   * transaction holds it); undefined when it is not (or not open yet), and the caller goes through
   * Kysely. Kysely's executor costs a chain of a dozen promises per query, more than SQLite takes
   * to answer a small read (query-shapes.ts uses this for its compiled reads).
   */
  readNow(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    return this.#driver?.readNow(sql, parameters);
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
}

/**
 * Hands the one connection to one user at a time. A wait that lasts longer than `timeoutMs`
 * fails instead of hanging: the usual cause is a query made through the plain `db` while the same
 * code holds a transaction (inside `db.transaction()`, every query must use `trx`).
 */
/**
 * The one connection's lock. Requests go first: background work (jobs, periodic tasks; see
 * lib/background.ts) takes the connection only when no request waits for it, or once it has
 * waited `BACKGROUND_WAIT_MS` (so a busy server still makes progress on its jobs). A request then
 * waits for one statement of a job at most, not for each of the job's statements queued before it
 * (measured: posting p99 at 5 posts/s by an author with 1,000 followers, whose fan-out runs meanwhile).
 */
const BACKGROUND_WAIT_MS = 50;

interface Waiter {
  grant: () => void;
  since: number;
}

class Mutex {
  #locked = false;
  #waiters: Waiter[] = [];
  #background: Waiter[] = [];
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Nobody holds the lock (and so nobody waits for it). */
  get free(): boolean {
    return !this.#locked;
  }

  async lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return;
    }
    const queue = inBackground() ? this.#background : this.#waiters;
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
        since: performance.now(),
      };
      const timer = setTimeout(() => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(
          new Error(
            `the SQLite connection stayed busy for ${this.#timeoutMs} ms (a query outside an open transaction? inside db.transaction(), use trx)`,
          ),
        );
      }, this.#timeoutMs);
      queue.push(waiter);
    });
  }

  unlock(): void {
    const oldBackground = this.#background[0];
    const next =
      oldBackground !== undefined &&
      (this.#waiters.length === 0 || performance.now() - oldBackground.since >= BACKGROUND_WAIT_MS)
        ? this.#background.shift()
        : this.#waiters.shift();
    if (next) next.grant();
    else this.#locked = false;
  }
}

class NodeSqliteDriver implements Driver {
  readonly #path: string;
  #db?: DatabaseSync;
  #connection?: NodeSqliteConnection;
  readonly #mutex = new Mutex(30_000);

  constructor(path: string) {
    this.#path = path;
  }

  #dataVersion?: StatementSync;
  #checkpointer?: Checkpointer;
  #lastVersion = 0;
  #lastRead = Number.NEGATIVE_INFINITY;

  /**
   * Reading the pragma takes a lock on the database file, which costs more than the rest of a
   * cached request, so it is read at most once every 2 ms: another process's commit is seen
   * within that time.
   */
  dataVersion(): number | undefined {
    if (!this.#db) return undefined;
    const now = performance.now();
    if (now - this.#lastRead >= 2) {
      this.#dataVersion ??= this.#db.prepare("PRAGMA data_version");
      this.#lastVersion = Number((this.#dataVersion.get() as { data_version: number | bigint }).data_version);
      this.#lastRead = now;
    }
    return this.#lastVersion;
  }

  sawOtherWriter(): void {
    this.#lastRead = Number.NEGATIVE_INFINITY;
  }

  readNow(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined {
    if (!this.#connection || !this.#mutex.free) return undefined;
    return this.#connection.read(sql, parameters);
  }

  async init(): Promise<void> {
    this.#db = new DatabaseSync(this.#path);
    this.#db.exec("PRAGMA journal_mode = WAL");
    this.#db.exec("PRAGMA synchronous = NORMAL");
    this.#db.exec("PRAGMA foreign_keys = ON");
    this.#db.exec("PRAGMA busy_timeout = 5000");
    if (this.#path !== ":memory:") {
      // Checkpoints happen on a thread of their own (sqlite-checkpointer.ts), never in a request.
      this.#db.exec("PRAGMA wal_autocheckpoint = 0");
      this.#checkpointer = startCheckpointer(this.#path);
    }
    this.#connection = new NodeSqliteConnection(this.#db);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection as NodeSqliteConnection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // With inbox threads, one writer at a time among the threads (sqlite-write-lock.ts).
    await acquireWriteLock();
    try {
      await connection.executeQuery(CompiledQuery.raw("begin"));
    } catch (error) {
      releaseWriteLock();
      throw error;
    }
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw("commit"));
    } finally {
      releaseWriteLock();
    }
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw("rollback"));
    } finally {
      releaseWriteLock();
    }
  }
  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }
  async destroy(): Promise<void> {
    await this.#checkpointer?.stop();
    this.#checkpointer = undefined;
    this.#db?.close();
    this.#db = undefined;
    this.#dataVersion = undefined;
  }
}

function bindValue(v: unknown): SQLInputValue {
  if (v === true) return 1;
  if (v === false) return 0;
  if (v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  return v as SQLInputValue;
}

function readValue(v: unknown): unknown {
  if (typeof v !== "bigint") return v;
  return v <= 9007199254740991n && v >= -9007199254740991n ? Number(v) : v.toString();
}

/**
 * A result row as an object keyed by column name, built here from the array node:sqlite returns.
 * node:sqlite's own row objects each get a hidden class (Map) of their own, allocated in V8's old
 * generation, which only a full GC frees: some 80 bytes of old-space garbage per row, 40-50 KB
 * per timeline request, which made V8 grow its heap (and keep the pages) to 100+ MB under load.
 * These objects are the same as node:sqlite's: null prototype, a later column of the same name
 * winning, and are built 20% faster (measured on 40 status rows).
 */
function readRow(columns: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = Object.create(null);
  for (let i = 0; i < columns.length; i++) row[columns[i]] = readValue(values[i]);
  return row;
}

interface Prepared {
  stmt: StatementSync;
  columns: string[];
  pads: readonly Pad[];
}

/** Statements that do not write (or open and close transactions, which the driver locks for). */
const READ_OR_CONTROL = /^\s*(?:select|pragma|begin|commit|rollback|end|savepoint|release)\b/i;

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  /**
   * Prepared statements by SQL text as prepared (`IN` lists padded: sqlite-in-lists.ts), with
   * their result columns' names (none: not a reader).
   */
  readonly #cache = new Map<string, { stmt: StatementSync; columns: string[] }>();
  /** The SQL texts asked for, each with its statement and the parameters to repeat. */
  readonly #texts = new Map<string, Prepared>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #prepare(sql: string): Prepared {
    let prepared = this.#texts.get(sql);
    if (prepared === undefined) {
      const padded = padInLists(sql);
      let entry = this.#cache.get(padded.sql);
      if (entry === undefined) {
        const stmt = this.#db.prepare(padded.sql);
        stmt.setReadBigInts(true);
        const columns = stmt.columns().map((c) => c.name);
        // Rows come as arrays, made into objects by readRow (why: there).
        if (columns.length > 0) stmt.setReturnArrays(true);
        entry = { stmt, columns };
        if (this.#cache.size > 2000) {
          this.#cache.clear();
          this.#texts.clear();
        }
        this.#cache.set(padded.sql, entry);
      }
      prepared = { ...entry, pads: padded.pads };
      if (this.#texts.size > 8000) this.#texts.clear();
      this.#texts.set(sql, prepared);
    }
    return prepared;
  }

  /** The rows of a statement that returns rows (a read). */
  read(sql: string, parameters: readonly unknown[]): Record<string, unknown>[] {
    const { stmt, columns, pads } = this.#prepare(sql);
    const values = stmt.all(...padParameters(parameters, pads).map(bindValue)) as unknown as unknown[][];
    const rows = new Array<Record<string, unknown>>(values.length);
    for (let i = 0; i < values.length; i++) rows[i] = readRow(columns, values[i]);
    return rows;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (writeLockInUse() && !this.#db.isTransaction && !READ_OR_CONTROL.test(compiled.sql)) {
      // A write outside a transaction, with inbox threads on: one writer at a time (sqlite-write-lock.ts).
      await acquireWriteLock();
      try {
        return this.#execute(compiled);
      } finally {
        releaseWriteLock();
      }
    }
    return this.#execute(compiled);
  }

  #execute<R>(compiled: CompiledQuery): QueryResult<R> {
    const { stmt, columns, pads } = this.#prepare(compiled.sql);
    if (columns.length > 0) return { rows: this.read(compiled.sql, compiled.parameters) as R[] };
    const params = padParameters(compiled.parameters, pads).map(bindValue);
    const { changes, lastInsertRowid } = stmt.run(...params);
    return {
      numAffectedRows: BigInt(changes),
      insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; Kysely's interface requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming queries are not supported on SQLite");
  }
}
