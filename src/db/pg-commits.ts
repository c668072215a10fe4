import type {
  AbortableOperationOptions,
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from "kysely";
import type { ChangeTracker } from "./change-tracker.ts";

/**
 * Wraps PostgreSQL's Kysely dialect so the process learns when a write to a tracked table has
 * *committed*: at once for a statement outside a transaction, at COMMIT for one inside (a rolled
 * back transaction is forgotten). `committed` gets the trackers whose tables it wrote; the
 * database bumps them again and tells the other processes (db/change-notices.ts). It also counts
 * the statements sent, each a round trip to the server (BEGIN and COMMIT included).
 */
export function committingDialect(
  inner: Dialect,
  trackers: readonly ChangeTracker[],
  committed: (touched: ReadonlySet<ChangeTracker>) => void,
  counter: { statements: number },
): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db: Kysely<any>) => inner.createIntrospector(db),
    createDriver: () => new CommittingDriver(inner.createDriver(), trackers, committed, counter),
  };
}

/** What one connection's open transaction wrote (undefined outside a transaction). */
interface ConnectionState {
  inTransaction: boolean;
  touched: Set<ChangeTracker>;
}

/** BEGIN, COMMIT and the like, sent by the driver itself: no table is written by them. */
const CONTROL = /^\s*(begin|start\s+transaction|commit|rollback|savepoint|release)\b/i;

class CommittingDriver implements Driver {
  readonly #inner: Driver;
  readonly #trackers: readonly ChangeTracker[];
  readonly #committed: (touched: ReadonlySet<ChangeTracker>) => void;
  readonly #counter: { statements: number };
  readonly #states = new WeakMap<DatabaseConnection, ConnectionState>();

  constructor(
    inner: Driver,
    trackers: readonly ChangeTracker[],
    committed: (touched: ReadonlySet<ChangeTracker>) => void,
    counter: { statements: number },
  ) {
    this.#inner = inner;
    this.#trackers = trackers;
    this.#committed = committed;
    this.#counter = counter;
    if (inner.savepoint) this.savepoint = (c, n, q) => inner.savepoint!(c, n, q);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (c, n, q) => inner.rollbackToSavepoint!(c, n, q);
    if (inner.releaseSavepoint) this.releaseSavepoint = (c, n, q) => inner.releaseSavepoint!(c, n, q);
  }

  savepoint?: (c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) => Promise<void>;
  rollbackToSavepoint?: (c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) => Promise<void>;
  releaseSavepoint?: (c: DatabaseConnection, name: string, compile: QueryCompiler["compileQuery"]) => Promise<void>;

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection(options);
    if (!this.#states.has(connection)) {
      // The pool hands the same connection object out again: it is wrapped once, in place (the
      // inner driver's own methods need the object it made).
      const state: ConnectionState = { inTransaction: false, touched: new Set() };
      this.#states.set(connection, state);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        this.#counter.statements++;
        const touched = this.#touched(query);
        const result = await execute<R>(query);
        if (touched.length > 0) {
          if (state.inTransaction) for (const t of touched) state.touched.add(t);
          else this.#committed(new Set(touched));
        }
        return result;
      };
    }
    return connection;
  }

  #touched(query: CompiledQuery): ChangeTracker[] {
    const node = query.query;
    if (node.kind === "SelectQueryNode") return [];
    if (node.kind === "RawNode" && CONTROL.test(query.sql)) return [];
    return this.#trackers.filter((t) => t.touches(node));
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.#inner.beginTransaction(connection, settings);
    const state = this.#states.get(connection);
    if (state) {
      state.inTransaction = true;
      state.touched.clear();
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const state = this.#states.get(connection);
    try {
      await this.#inner.commitTransaction(connection);
    } finally {
      if (state) {
        state.inTransaction = false;
        // A failed COMMIT may still have committed (the answer was lost): counted all the same.
        if (state.touched.size > 0) this.#committed(new Set(state.touched));
        state.touched.clear();
      }
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const state = this.#states.get(connection);
    if (state) {
      state.inTransaction = false;
      state.touched.clear();
    }
    await this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.releaseConnection(connection, options);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.destroy(options);
  }
}
