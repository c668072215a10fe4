// `npm run bench:overload [-- --quick] [-- --postgres[=URL]]`: the server at twice the rate it can
// sustain. A small instance is seeded (bench/seed.ts with smaller SEED_* shapes), the server is
// started as `npm start` starts it, with its default load-shedding settings, and the reader's
// public local timeline (`/api/v1/timelines/public?local=true&limit=40`, read from the database
// every time: the realistic costly read) is asked:
//   1. closed loop, BENCH_OVERLOAD_CONNECTIONS (16) clients: the sustainable goodput;
//   2. open loop at BENCH_OVERLOAD_FACTOR (2) times that rate, latencies from each request's due
//      time, so a server that queues cannot hide it.
// Each client (BENCH_OVERLOAD_CLIENT) is used in both loops (bench/lib/overload-load.ts says which
// and why). Goodput: the 2xx answers that came within BENCH_OVERLOAD_DEADLINE_MS of their due time,
// per second; a later answer is not goodput (its client has given up, or should have).
// Printed beside the targets: goodput at twice the rate against the sustainable goodput (≥ 90%),
// the share of 503s, their latency (refused at once: p99 small), that every 503 carries
// Retry-After, no request left unanswered, and p99 of the served ones; server CPU per answer in
// both phases; how late the load generator itself sent its requests (a starved generator says
// little about the server).
//   BENCH_OVERLOAD_SECONDS=10  length of each phase (5 with --quick)
//   BENCH_OVERLOAD_DEADLINE_MS=2000  the deadline of a useful answer
//   BENCH_OVERLOAD_RATE=N  the open loop's rate, instead of FACTOR × the measured sustainable rate
//   BENCH_OVERLOAD_CLIENT=connection,proxy  the clients, in turn (pool: the former one; see
//     bench/lib/overload-load.ts), each with its own sustainable rate and table
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
import {
  type Answer,
  type ClientKind,
  closedLoop,
  listenOverflows,
  openLoop,
  percentile,
} from "./lib/overload-load.ts";
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
const DEADLINE_MS = wholeNumber(process.env, "BENCH_OVERLOAD_DEADLINE_MS", 2000);
const FIXED_RATE = wholeNumber(process.env, "BENCH_OVERLOAD_RATE", 0);
const CLIENT_KINDS: Record<ClientKind, string> = {
  connection: "each request on a connection of its own, as clients on the internet come",
  proxy: "keep-alive connections, a new one whenever all are busy, as a reverse proxy in front keeps",
  pool: "the former load: a pool of at most 1,024 keep-alive sockets, the rest queued in the client",
};
const CLIENTS = (process.env.BENCH_OVERLOAD_CLIENT ?? "connection,proxy").split(",").map((k) => {
  if (!(k in CLIENT_KINDS)) throw new Error(`BENCH_OVERLOAD_CLIENT: unknown client ${k}`);
  return k as ClientKind;
});
const SHEDDING = process.env.BENCH_OVERLOAD_SHEDDING === "off" ? "off" : "on";
const SEED_SHAPE = {
  SEED_STATUSES: "20000",
  SEED_ACCOUNTS: "500",
  SEED_READER_FOLLOWS: "200",
  SEED_AUTHOR_FOLLOWERS: "200",
};
const TARGET_GOODPUT = 0.9;
/** What "refused at once" means here: a refusal's p99 (from its due time). */
const TARGET_REFUSAL_P99_MS = 100;

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
  server = startChild(NODE, START.serverArgs, { env: { ...env, ...START.env } });
  await waitUntilAnswering(`${origin}/health`, server, t0);

  const url = `${origin}/api/v1/timelines/public?local=true&limit=40`;
  const headers = { Authorization: `Bearer ${token}` };
  console.log(`## Overload (${database.label}, LOAD_SHEDDING=${SHEDDING})\n`);
  console.log(
    `Seed ${Object.keys(SEED_SHAPE)
      .map((k) => `${k}=${env[k as keyof typeof env]}`)
      .join(
        " ",
      )}; public local timeline, limit 40, as the reader; each phase ${SECONDS} s; goodput deadline ${DEADLINE_MS} ms\n`,
  );
  for (const [i, kind] of CLIENTS.entries()) {
    if (i > 0) await sleep(2000);
    await loadWith(kind, server.pid, url, headers);
  }
  await stopChild(server);
  server = undefined;
}

async function loadWith(kind: ClientKind, pid: number, url: string, headers: Record<string, string>) {
  log(`${kind}: warm-up, 3 s closed loop`);
  await closedLoop(url, headers, CONNECTIONS, 3, kind);
  log(`sustainable rate: ${SECONDS} s closed loop, ${CONNECTIONS} clients (${kind})`);
  const closed = await measured(pid, () => closedLoop(url, headers, CONNECTIONS, SECONDS, kind));
  const good = (a: Answer) => a.status >= 200 && a.status < 300 && a.ms <= DEADLINE_MS;
  const closedOk = closed.answers.filter((a) => a.status >= 200 && a.status < 300);
  const sustainable = closed.answers.filter(good).length / SECONDS;
  const rate = FIXED_RATE > 0 ? FIXED_RATE : Math.round(sustainable * FACTOR);
  await sleep(1000);
  log(`open loop at ${rate} req/s (${(rate / sustainable).toFixed(2)} × ${sustainable.toFixed(0)}) for ${SECONDS} s`);
  const overflows0 = listenOverflows();
  const open = await measured(pid, () => openLoop(url, headers, rate, SECONDS, kind));
  const overflows = listenOverflows() - overflows0;

  const served = open.answers.filter((a) => a.status >= 200 && a.status < 300);
  const refused = open.answers.filter((a) => a.status === 503);
  const unanswered = open.answers.filter((a) => a.status === 0);
  const other = open.answers.length - served.length - refused.length - unanswered.length;
  // Goodput: the 2xx answers that came within the deadline of their due time.
  const goodput = served.filter(good).length / SECONDS;
  const late = served.length - served.filter(good).length;
  const share = goodput / sustainable;
  const refusedAtOnce = refused.filter((a) => a.ms <= TARGET_REFUSAL_P99_MS).length;
  const withRetryAfter = refused.filter((a) => a.retryAfter).length;
  const ms = (xs: Answer[], p: number) =>
    percentile(
      xs.map((a) => a.ms),
      p,
    ).toFixed(1);
  /** From when the load generator sent it (leaving out its own lateness). */
  const fromSent = (xs: Answer[], p: number) =>
    percentile(
      xs.map((a) => a.ms - a.sentLate),
      p,
    ).toFixed(1);
  const refusedP99 = percentile(
    refused.map((a) => a.ms),
    0.99,
  );
  const cpu = (p: Phase) => `${((p.cpuMs * 1000) / Math.max(1, p.answers.length)).toFixed(0)} µs`;
  const mark = (ok: boolean) => (ok ? "✅" : "❌");
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

  console.log(`\n### Client: ${kind} (${CLIENT_KINDS[kind]})\n`);
  console.log("| figure | measured | target |");
  console.log("|---|---|---|");
  const times = `${(rate / sustainable).toFixed(2)} ×`;
  console.log(
    `| sustainable goodput (closed loop, ${CONNECTIONS} clients) | ${sustainable.toFixed(0)} 2xx/s, p99 ${ms(closedOk, 0.99)} ms, ${cpu(closed)} CPU/answer | |`,
  );
  console.log(
    `| goodput at ${times} (${rate} req/s open loop) | ${goodput.toFixed(0)} 2xx/s within ${DEADLINE_MS} ms = ${pct(share)} of sustainable; ${late} 2xx later than that | ≥ ${pct(TARGET_GOODPUT)} ${mark(share >= TARGET_GOODPUT)} |`,
  );
  console.log(
    `| served at ${times}: latency | p50 ${ms(served, 0.5)} ms, p99 ${ms(served, 0.99)} ms from due (from sending: p50 ${fromSent(served, 0.5)} ms, p99 ${fromSent(served, 0.99)} ms), ${cpu(open)} CPU/answer (all answers) | (for comparison) |`,
  );
  console.log(
    `| refused at ${times}: 503s | ${refused.length} (${pct(refused.length / Math.max(1, open.answers.length))} of ${open.answers.length}; ${pct(refusedAtOnce / Math.max(1, refused.length))} of them within ${TARGET_REFUSAL_P99_MS} ms), p50 ${ms(refused, 0.5)} ms, p99 ${ms(refused, 0.99)} ms from due, p50 ${fromSent(refused, 0.5)} ms, p99 ${fromSent(refused, 0.99)} ms from sending | refused at once: p99 < ${TARGET_REFUSAL_P99_MS} ms ${mark(refused.length > 0 && refusedP99 < TARGET_REFUSAL_P99_MS)} |`,
  );
  console.log(
    `| 503s with Retry-After | ${withRetryAfter} of ${refused.length} | all ${mark(withRetryAfter === refused.length)} |`,
  );
  console.log(
    `| unanswered (timeouts, errors) / other statuses | ${unanswered.length} / ${other} | 0 / 0 ${mark(unanswered.length === 0 && other === 0)} |`,
  );
  console.log(
    `| SYNs dropped, listen queue full (ListenOverflows, whole machine) | ${overflows} | 0 (each waits a second or more, unseen) ${mark(overflows === 0)} |`,
  );
  const sentLate = open.answers.map((a) => a.sentLate);
  console.log(
    `| load generator: requests sent late | p50 ${percentile(sentLate, 0.5).toFixed(1)} ms, p99 ${percentile(sentLate, 0.99).toFixed(1)} ms | small (else it, not the server, is short of CPU) |`,
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
