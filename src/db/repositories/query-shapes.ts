import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { DB } from "../schema.ts";

/**
 * Compiled queries of the busiest reads, one per shape (what makes their SQL text: usually the
 * length of an `IN` list) and per database. Building and compiling a query with Kysely costs
 * more than SQLite takes to answer a small one; a query of a known shape reuses the SQL text
 * with the new parameters.
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
 * The rows of the query `build()` makes, compiled only the first time this `shape` is seen on
 * this database. `params` must be the query's parameters in order: it is checked against
 * Kysely's own the first time, and a query whose parameters do not match is never reused.
 * The shape names everything but the parameter values that changes the SQL text. In a
 * transaction (a new `db` each time) the query is built and run as it is: nothing to keep.
 */
export async function selectShaped<R>(
  db: Kysely<DB>,
  shape: string,
  params: readonly unknown[],
  build: () => Compilable<R>,
): Promise<R[]> {
  if (db.isTransaction) return (await db.executeQuery(build().compile())).rows;
  let known = shapes.get(db);
  if (known === undefined) {
    known = new Map();
    shapes.set(db, known);
  }
  const compiled = known.get(shape);
  if (compiled !== undefined) {
    const now = readers.get(db)?.(compiled.sql, params);
    if (now !== undefined) return now as R[];
    const query: CompiledQuery<R> = {
      sql: compiled.sql,
      query: compiled.query,
      queryId: compiled.queryId,
      parameters: params,
    };
    return (await db.executeQuery(query)).rows;
  }
  const fresh = build().compile();
  const same = fresh.parameters.length === params.length && fresh.parameters.every((p, i) => Object.is(p, params[i]));
  if (same) {
    if (known.size >= MAX_SHAPES) known.clear();
    known.set(shape, fresh);
  } else if (strict()) {
    throw new Error(`selectShaped: the parameters given for ${shape} are not the query's (${fresh.parameters.length})`);
  }
  return (await db.executeQuery(fresh)).rows;
}
