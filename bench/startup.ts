// `npm run bench:startup [-- --postgres[=URL]]`: cold start alone. Builds as `npm start` does,
// starts the server once on an empty data directory (which migrates it and fills the compile
// cache), stops it, then starts it BENCH_STARTS (5) times on that existing data directory, each
// timed from the spawn to the first 200 of `/health`, and reads its resident memory after
// BENCH_IDLE_MS (2000) of idling. Printed beside the targets (300 ms, 120 MiB): the median, and
// each start, and the CPU time the process had used by its first answer (steadier than wall
// time on a busy machine).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Child,
  freePort,
  killAllChildren,
  NODE,
  runChild,
  sleep,
  startChild,
  startCommand,
  stopChild,
} from "./lib/children.ts";
import { type BenchDatabase, postgresDatabase, sqliteDatabase } from "./lib/database.ts";
import { waitUntilAnswering } from "./lib/http.ts";
import { parseOptions, wholeNumber } from "./lib/options.ts";
import { clockTicksPerSecond, cpuTicks, memory } from "./lib/proc.ts";

const START = startCommand();
const opts = parseOptions(process.argv.slice(2), process.env);
const STARTS = wholeNumber(process.env, "BENCH_STARTS", 5);
const IDLE_MS = wholeNumber(process.env, "BENCH_IDLE_MS", 2000);
const TARGET_MS = 300;
const TARGET_MIB = 120;
const log = (m: string) => process.stderr.write(`[startup] ${m}\n`);

let server: Child | undefined;
let dataDir: string | undefined;
let benchDb: BenchDatabase | undefined;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  dataDir = mkdtempSync(join(tmpdir(), "gannet-bench-startup-"));
  const database = opts.postgresUrl ? await postgresDatabase(opts.postgresUrl) : sqliteDatabase();
  benchDb = database;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: database.serverUrl,
    REDIS_URL: "",
    LOG_LEVEL: "warning",
    BIND: "127.0.0.1",
  };
  for (const args of START.buildCommands) await runChild(NODE, args, { env }, 120_000);
  const first = performance.now();
  server = startChild(NODE, START.serverArgs, { env: { ...env, ...START.env } });
  const firstMs = await waitUntilAnswering(`${origin}/health`, server, first, { limitMs: 120_000 });
  log(`first start (migrating an empty database): ${firstMs.toFixed(0)} ms`);
  await stopChild(server);
  const ms: number[] = [];
  const cpu: number[] = [];
  const rss: number[] = [];
  const ticks = clockTicksPerSecond();
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    server = startChild(NODE, START.serverArgs, { env: { ...env, ...START.env } });
    ms.push(await waitUntilAnswering(`${origin}/health`, server, t0, { intervalMs: 2 }));
    // CPU time (all threads) until the first answer: steadier than wall time on a busy machine.
    cpu.push((cpuTicks(server.pid) * 1000) / ticks);
    await sleep(IDLE_MS);
    rss.push(memory(server.pid).rss);
    log(
      `start ${i + 1}/${STARTS}: ${ms[i].toFixed(0)} ms (${cpu[i].toFixed(0)} ms CPU), ${rss[i].toFixed(1)} MiB after ${IDLE_MS} ms`,
    );
    await stopChild(server);
    server = undefined;
  }
  const mark = (ok: boolean) => (ok ? "✅" : "❌");
  const m = median(ms);
  const r = median(rss);
  console.log(`## Cold start (${database.label}, existing data directory)\n`);
  console.log("| figure | measured | target |");
  console.log("|---|---|---|");
  console.log(
    `| spawn to first 200 of /health, median of ${STARTS} | ${m.toFixed(0)} ms (${ms.map((x) => x.toFixed(0)).join(", ")}) | < ${TARGET_MS} ms ${mark(m < TARGET_MS)} |`,
  );
  console.log(`| CPU time until then, median | ${median(cpu).toFixed(0)} ms | |`);
  console.log(
    `| resident memory ${IDLE_MS} ms after start-up, median | ${r.toFixed(1)} MiB (${rss.map((x) => x.toFixed(1)).join(", ")}) | < ${TARGET_MIB} MiB ${mark(r < TARGET_MIB)} |`,
  );
}

async function cleanUp() {
  if (server) await stopChild(server);
  killAllChildren();
  await benchDb?.close().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

try {
  await main();
  await cleanUp();
} catch (e) {
  log(`failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  await cleanUp();
  process.exit(1);
}
