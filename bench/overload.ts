// `npm run bench:overload [-- --quick] [-- --postgres[=URL]]`: the server at twice the rate it can
// sustain. A small instance is seeded (bench/seed.ts with smaller SEED_* shapes), the server is
// started as `npm start` starts it, with its default load-shedding settings, and the reader's
// public local timeline (`/api/v1/timelines/public?local=true&limit=40`, read from the database
// every time: the realistic costly read) is asked:
//   1. closed loop, BENCH_OVERLOAD_CONNECTIONS (16) connections: the sustainable rate (2xx/s);
//   2. open loop at BENCH_OVERLOAD_FACTOR (2) times that rate, latencies from each request's due
//      time, so a server that queues cannot hide it.
// Printed beside the targets: goodput (2xx/s) against the sustainable rate (≥ 90%), the share of
// 503s, their latency (refused at once: p99 small), that every 503 carries Retry-After, no request
// left unanswered, and p99 of the served ones; server CPU per answer in both phases.
//   BENCH_OVERLOAD_SECONDS=10  length of each phase (5 with --quick)
//   BENCH_OVERLOAD_SHEDDING=off  the same with LOAD_SHEDDING=off, for comparison
//   SEED_STATUSES=20000 SEED_ACCOUNTS=500 ...  the seed's shape (these are the defaults here)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
import { type Answer, closedLoop, openLoop, percentile } from "./lib/overload-load.ts";
import { clockTicksPerSecond, cpuTicks } from "./lib/proc.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const START = startCommand();
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const opts = parseOptions(
  argv.filter((a) => a !== "--quick"),
  process.env,
);
const SECONDS = wholeNumber(process.env, "BENCH_OVERLOAD_SECONDS", quick ? 5 : 10);
const CONNECTIONS = wholeNumber(process.env, "BENCH_OVERLOAD_CONNECTIONS", 16);
const FACTOR = Number(process.env.BENCH_OVERLOAD_FACTOR ?? 2);
const SHEDDING = process.env.BENCH_OVERLOAD_SHEDDING === "off" ? "off" : "on";
const SEED_SHAPE = {
  SEED_STATUSES: "20000",
  SEED_ACCOUNTS: "500",
  SEED_READER_FOLLOWS: "200",
  SEED_AUTHOR_FOLLOWERS: "200",
};
const TARGET_GOODPUT = 0.9;
/** What "refused at once" means here: a refusal's p99 against the served answers' p99. */
const TARGET_REFUSAL_P99_MS = 250;

const log = (m: string) => process.stderr.write(`[overload] ${m}\n`);

let server: Child | undefined;
let dataDir: string | undefined;
let benchDb: BenchDatabase | undefined;

interface Phase {
  answers: Answer[];
  /** The server's CPU time over the phase. */
  cpuMs: number;
}

async function measured(pid: number, run: () => Promise<Answer[]>): Promise<Phase> {
  const ticks = clockTicksPerSecond();
  const c0 = cpuTicks(pid);
  const answers = await run();
  return { answers, cpuMs: ((cpuTicks(pid) - c0) * 1000) / ticks };
}

async function main() {
  dataDir = mkdtempSync(join(tmpdir(), "gannet-bench-overload-"));
  const database = opts.postgresUrl ? await postgresDatabase(opts.postgresUrl) : sqliteDatabase();
  benchDb = database;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...SEED_SHAPE,
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: database.serverUrl,
    REDIS_URL: "",
    RATE_LIMITS: "off",
    LOG_LEVEL: "warning",
    BIND: "127.0.0.1",
    LOAD_SHEDDING: SHEDDING,
  };
  for (const args of START.buildCommands) await runChild(NODE, args, { env }, 120_000);
  log(`seeding ${dataDir} on ${database.label}`);
  const seeded = await runChild(NODE, [join(BENCH_DIR, "seed.ts")], { env }, 900_000);
  const token = /^SEED_READER_TOKEN=(\S+)$/m.exec(seeded)?.[1];
  if (!token) throw new Error(`the seed printed no token:\n${seeded}`);

  const t0 = performance.now();
  server = startChild(NODE, START.serverArgs, { env });
  await waitUntilAnswering(`${origin}/health`, server, t0);
  const url = `${origin}/api/v1/timelines/public?local=true&limit=40`;
  const headers = { Authorization: `Bearer ${token}` };

  log("warm-up: 3 s closed loop");
  await closedLoop(url, headers, CONNECTIONS, 3);
  log(`sustainable rate: ${SECONDS} s closed loop, ${CONNECTIONS} connections`);
  const closed = await measured(server.pid, () => closedLoop(url, headers, CONNECTIONS, SECONDS));
  const closedOk = closed.answers.filter((a) => a.status >= 200 && a.status < 300);
  const sustainable = closedOk.length / SECONDS;
  const rate = Math.round(sustainable * FACTOR);
  await sleep(1000);
  log(`open loop at ${rate} req/s (${FACTOR} × ${sustainable.toFixed(0)}) for ${SECONDS} s`);
  const open = await measured(server.pid, () => openLoop(url, headers, rate, SECONDS));
  await stopChild(server);
  server = undefined;

  const served = open.answers.filter((a) => a.status >= 200 && a.status < 300);
  const refused = open.answers.filter((a) => a.status === 503);
  const unanswered = open.answers.filter((a) => a.status === 0);
  const other = open.answers.length - served.length - refused.length - unanswered.length;
  // Goodput: the 2xx answers that arrived within the open loop's own window (an answer that
  // comes after it, seconds late, is not throughput the server sustained at that rate).
  const windowStart = open.answers.reduce((m, a) => Math.min(m, a.due), Number.POSITIVE_INFINITY);
  const windowEnd = windowStart + SECONDS * 1000;
  const goodput = served.filter((a) => a.due + a.ms <= windowEnd).length / SECONDS;
  const share = goodput / sustainable;
  const withRetryAfter = refused.filter((a) => a.retryAfter).length;
  const ms = (xs: Answer[], p: number) =>
    percentile(
      xs.map((a) => a.ms),
      p,
    ).toFixed(1);
  const refusedP99 = percentile(
    refused.map((a) => a.ms),
    0.99,
  );
  const cpu = (p: Phase) => `${((p.cpuMs * 1000) / Math.max(1, p.answers.length)).toFixed(0)} µs`;
  const mark = (ok: boolean) => (ok ? "✅" : "❌");
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

  console.log(`## Overload (${database.label}, LOAD_SHEDDING=${SHEDDING})\n`);
  console.log(
    `Seed ${Object.keys(SEED_SHAPE)
      .map((k) => `${k}=${env[k as keyof typeof env]}`)
      .join(" ")}; public local timeline, limit 40, as the reader; each phase ${SECONDS} s\n`,
  );
  console.log("| figure | measured | target |");
  console.log("|---|---|---|");
  console.log(
    `| sustainable rate (closed loop, ${CONNECTIONS} connections) | ${sustainable.toFixed(0)} 2xx/s, p99 ${ms(closedOk, 0.99)} ms, ${cpu(closed)} CPU/answer | |`,
  );
  console.log(
    `| goodput at ${FACTOR} × (${rate} req/s open loop) | ${goodput.toFixed(0)} 2xx/s = ${pct(share)} of sustainable | ≥ ${pct(TARGET_GOODPUT)} ${mark(share >= TARGET_GOODPUT)} |`,
  );
  console.log(
    `| served at ${FACTOR} ×: latency | p50 ${ms(served, 0.5)} ms, p99 ${ms(served, 0.99)} ms, ${cpu(open)} CPU/answer (all answers) | (for comparison) |`,
  );
  console.log(
    `| refused at ${FACTOR} ×: 503s | ${refused.length} (${pct(refused.length / Math.max(1, open.answers.length))} of ${open.answers.length}), p50 ${ms(refused, 0.5)} ms, p99 ${ms(refused, 0.99)} ms | refused at once: p99 < ${TARGET_REFUSAL_P99_MS} ms ${mark(refused.length > 0 && refusedP99 < TARGET_REFUSAL_P99_MS)} |`,
  );
  console.log(
    `| 503s with Retry-After | ${withRetryAfter} of ${refused.length} | all ${mark(withRetryAfter === refused.length)} |`,
  );
  console.log(
    `| unanswered (timeouts, errors) / other statuses | ${unanswered.length} / ${other} | 0 / 0 ${mark(unanswered.length === 0 && other === 0)} |`,
  );
}

async function cleanup() {
  if (server) await stopChild(server).catch(() => {});
  killAllChildren();
  await benchDb?.close().catch(() => {});
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

try {
  await main();
} catch (e) {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
