// Bulk writes for the seed (bench/seed.ts): time-sortable ids and batched multi-row inserts.
import { CompiledQuery } from "kysely";
import type { AppContext } from "../../src/context.ts";

/** Snowflake-style ids (ms << 16), strictly increasing in call order, at the given times. */
export class Ids {
  #last = 0n;
  at(ms: number): string {
    let id = BigInt(Math.floor(ms)) << 16n;
    if (id <= this.#last) id = this.#last + 1n;
    this.#last = id;
    return id.toString();
  }
}

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Inserts rows in multi-row statements (as many rows as fit `maxParams` bound values), all in one
 * transaction per call. Raw compiled SQL: building Kysely's query tree for two million rows
 * would cost more than SQLite spends storing them.
 */
export async function bulkInsert(
  ctx: AppContext,
  table: string,
  columns: string[],
  rows: Iterable<unknown[]>,
  rowCount: number,
): Promise<number> {
  if (rowCount === 0) return 0;
  const pg = ctx.dialect === "postgres";
  const perStatement = Math.max(1, Math.min(1000, Math.floor((pg ? 60_000 : 30_000) / columns.length)));
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const statementFor = (count: number) => {
    const tuples: string[] = [];
    let p = 1;
    for (let r = 0; r < count; r++) {
      tuples.push(`(${columns.map(() => (pg ? `$${p++}` : "?")).join(", ")})`);
    }
    return head + tuples.join(", ");
  };
  const full = statementFor(perStatement);
  let written = 0;
  await ctx.db.transaction().execute(async (trx) => {
    let params: unknown[] = [];
    let inBatch = 0;
    const flush = async () => {
      if (inBatch === 0) return;
      const text = inBatch === perStatement ? full : statementFor(inBatch);
      await trx.executeQuery(CompiledQuery.raw(text, params));
      written += inBatch;
      params = [];
      inBatch = 0;
    };
    for (const row of rows) {
      for (const v of row) params.push(v);
      if (++inBatch === perStatement) await flush();
    }
    await flush();
  });
  return written;
}
