import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";
import type { DB } from "../schema.ts";

/**
 * Compiled queries of the busiest statements, one per shape (what makes their SQL text: usually
 * the length of an `IN` list, or the columns written) and per database. Building and compiling a
 * query with Kysely costs more than SQLite takes to answer a small one; a query of a known shape
 * reuses the SQL text with the new parameters. Kept per dialect adapter: a database and its
 * transactions share it (and compile alike), two databases do not.
 */
const shapes = new WeakMap<object, Map<string, CompiledQuery>>();

const MAX_SHAPES = 2000;

/** Runs a compiled read at once when the database can (SQLite's free connection), else undefined. */
export type ReadNow = (sql: string, parameters: readonly unknown[]) => Record<string, unknown>[] | undefined;

const readers = new WeakMap<object, ReadNow>();

/** Lets `selectShaped` run `db`'s known reads through `readNow` (database.ts, on SQLite). */
export function registerReadNow(db: Kysely<DB>, readNow: ReadNow): void {
  readers.set(db, readNow);
}

/**
 * Set by the test helpers: a query whose given parameters are not its own fails instead of going
 * uncached (it still answers right, so nothing else would notice).
 */
const strict = () => process.env.GANNET_STRICT_SHAPES === "1";

/**
 * The query of `shape` with `params`: compiled before (the same SQL text and operation node, new
 * parameters), or compiled now by `build()` and kept when its parameters are `params`, in order
 * (checked against Kysely's own; a query whose parameters do not match is never reused).
 */
function shaped<R>(
  db: Kysely<DB>,
  shape: string,
  params: readonly unknown[],
  build: () => Compilable<R>,
): { query: CompiledQuery<R>; known: boolean } {
  const adapter = db.getExecutor().adapter;
  let known = shapes.get(adapter);
  if (known === undefined) {
    known = new Map();
    shapes.set(adapter, known);
  }
  const compiled = known.get(shape);
  if (compiled !== undefined) {
    return {
      query: { sql: compiled.sql, query: compiled.query, queryId: compiled.queryId, parameters: params },
      known: true,
    };
  }
  const fresh = build().compile();
  const same = fresh.parameters.length === params.length && fresh.parameters.every((p, i) => Object.is(p, params[i]));
  if (same) {
    if (known.size >= MAX_SHAPES) known.clear();
    known.set(shape, fresh);
  } else if (strict()) {
    throw new Error(`query shape ${shape}: the parameters given are not the query's (${fresh.parameters.length})`);
  }
  return { query: fresh, known: false };
}

/**
 * The rows of the query `build()` makes, compiled only the first time this `shape` is seen on
 * this database. `params` must be the query's parameters in order. The shape names everything
 * but the parameter values that changes the SQL text.
 */
export async function selectShaped<R>(
  db: Kysely<DB>,
  shape: string,
  params: readonly unknown[],
  build: () => Compilable<R>,
): Promise<R[]> {
  const { query, known } = shaped(db, shape, params, build);
  if (known && !db.isTransaction) {
    const now = readers.get(db)?.(query.sql, params);
    if (now !== undefined) return now as R[];
  }
  return (await db.executeQuery(query)).rows;
}

/**
 * A write (insert, update, delete) of a known shape, as `selectShaped`: compiled the first time
 * only. Reused, its operation node still goes through Kysely's plugins (`transformQuery`), so the
 * change trackers (change-tracker.ts) see every write as if it had been built again.
 */
export async function writeShaped<R>(
  db: Kysely<DB>,
  shape: string,
  params: readonly unknown[],
  build: () => Compilable<R>,
): Promise<QueryResult<R>> {
  const { query, known } = shaped(db, shape, params, build);
  if (known) db.getExecutor().transformQuery(query.query, query.queryId);
  return db.executeQuery(query);
}
