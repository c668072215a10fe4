// In-process timing of the trends scoring job (refreshTrends) on a seeded data directory, for
// development: each run's duration, the time per statement (summed, and the longest single one
// in wall and CPU time, the steadier on a busy machine) and the event loop's longest stall
// meanwhile (on SQLite every statement runs on the main thread, so the longest stall bounds what
// a request waits behind the job). `npm run bench` measures the same job inside the server.
//   DATA_DIR=/tmp/x node bench/trends-inproc.ts [runs]       (or DATABASE_URL=postgres://...)
//   PLANS=1   also prints the query plan of every statement over 20 ms (SQLite)
import { CompiledQuery } from "kysely";
import { loadConfig, readEnvironment } from "../src/config/index.ts";
import { createContext } from "../src/context.ts";
import { refreshTrends } from "../src/services/trends/scoring.ts";

const runs = Number(process.argv[2] ?? 3);
const ctx = await createContext(loadConfig(readEnvironment()));
const total = new Map<string, { ms: number; n: number; max: number; cpuMax: number }>();
const db = ctx.db as unknown as { getExecutor(): { executeQuery: (...a: unknown[]) => Promise<unknown> } };
const ex = db.getExecutor();
const orig = ex.executeQuery.bind(ex);
const plans: string[] = [];
ex.executeQuery = async (...a: unknown[]) => {
  const q = a[0] as { sql: string; parameters: unknown[] };
  const sql = q.sql.replace(/\s+/g, " ").slice(0, 110);
  const t = performance.now();
  const c = process.cpuUsage();
  const v = await orig(...a);
  const ms = performance.now() - t;
  const cu = process.cpuUsage(c);
  const cpu = (cu.user + cu.system) / 1000;
  if (process.env.PLANS === "1" && ms > 20 && ctx.dialect === "sqlite") {
    const plan = (await orig(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]))) as {
      rows: { detail: string }[];
    };
    plans.push(`${ms.toFixed(0)} ms ${sql}\n  ${plan.rows.map((r) => r.detail).join("\n  ")}`);
  }
  const e = total.get(sql) ?? { ms: 0, n: 0, max: 0, cpuMax: 0 };
  total.set(sql, { ms: e.ms + ms, n: e.n + 1, max: Math.max(e.max, ms), cpuMax: Math.max(e.cpuMax, cpu) });
  return v;
};
try {
  for (let i = 0; i < runs; i++) {
    total.clear();
    // The longest gap between ticks of a 1 ms timer: how long the thread was held at a stretch.
    let last = performance.now();
    let stall = 0;
    const timer = setInterval(() => {
      const t = performance.now();
      stall = Math.max(stall, t - last);
      last = t;
    }, 1);
    const t0 = performance.now();
    const r = await refreshTrends(ctx);
    const ms = performance.now() - t0;
    clearInterval(timer);
    stall = Math.max(stall, performance.now() - last);
    console.log(
      `run ${i + 1}: ${ms.toFixed(0)} ms (${r.tags} tags, ${r.statuses} posts, ${r.links} links); ` +
        `longest stall of the event loop ${stall.toFixed(1)} ms`,
    );
  }
  if (plans.length > 0) console.log(plans.join("\n"));
  const rows = [...total.entries()].sort((x, y) => y[1].ms - x[1].ms).slice(0, 15);
  for (const [sql, e] of rows) {
    const max = `max ${e.max.toFixed(1).padStart(6)} (CPU ${e.cpuMax.toFixed(1).padStart(5)})`;
    console.log(`${e.ms.toFixed(1).padStart(8)} ms ${String(e.n).padStart(4)}× ${max}  ${sql.slice(0, 90)}`);
  }
} finally {
  await ctx.close();
}
