// `npm run bench:overload [-- --quick] [-- --postgres[=URL]]`: the server at twice the rate it can
// sustain. A small instance is seeded (bench/seed.ts with smaller SEED_* shapes), the server is
// started as `npm start` starts it, with its default load-shedding settings, and the reader's
// public local timeline (`/api/v1/timelines/public?local=true&limit=40`, read from the database
// every time: the realistic costly read) is asked:
//   1. closed loop, BENCH_OVERLOAD_CONNECTIONS (16) clients: the sustainable goodput;
//   2. open loops at BENCH_OVERLOAD_FACTORS (1,2) times that rate (BENCH_OVERLOAD_FACTOR sets the
//      second), latencies from each request's due time, so a server that queues cannot hide it.
// Each client (BENCH_OVERLOAD_CLIENT) is used in both loops (bench/lib/overload-load.ts says which
// and why). Goodput: the 2xx answers that came within BENCH_OVERLOAD_DEADLINE_MS of their due time,
// per second; a later answer is not goodput (its client has given up, or should have).
// Printed beside the targets: goodput at twice the rate against the sustainable goodput (≥ 90%),
// the share of 503s, their latency (refused at once: p99 small), that every 503 carries
// Retry-After, no request left unanswered, and p99 of the served ones; server CPU per answer in
// both phases; how late the load generator itself sent its requests and its CPU per request (a
// starved generator says little about the server).
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
const FACTORS = (process.env.BENCH_OVERLOAD_FACTORS ?? `1,${process.env.BENCH_OVERLOAD_FACTOR ?? 2}`)
  .split(",")
  .map(Number)
  .filter((f) => f > 0);
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
/** A load generator that sends its requests later than this (p99) is short of CPU. */
const TARGET_GENERATOR_LATE_MS = 20;

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

interface Measured {
  label: string;
  rate: number;
  goodput: number;
  served: Answer[];
  refused: Answer[];
  unanswered: number;
  other: number;
  late: number;
  total: number;
  overflows: number;
  phase: Phase;
  generatorCpuUs: number;
  sentLate: number[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const mark = (ok: boolean) => (ok ? "✅" : "❌");
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
const cpu = (p: Phase) => `${((p.cpuMs * 1000) / Math.max(1, p.answers.length)).toFixed(0)} µs`;
const isGood = (a: Answer) => a.status >= 200 && a.status < 300 && a.ms <= DEADLINE_MS;

async function loadWith(kind: ClientKind, pid: number, url: string, headers: Record<string, string>) {
  log(`${kind}: warm-up, 3 s closed loop`);
  await closedLoop(url, headers, CONNECTIONS, 3, kind);
  log(`sustainable rate: ${SECONDS} s closed loop, ${CONNECTIONS} clients (${kind})`);
  let generatorCpuUs = 0;
  const closed = await measured(pid, async () => {
    const load = await closedLoop(url, headers, CONNECTIONS, SECONDS, kind);
    generatorCpuUs = load.generatorCpuUs;
    return load.answers;
  });
  const closedOk = closed.answers.filter((a) => a.status >= 200 && a.status < 300);
  const sustainable = closed.answers.filter(isGood).length / SECONDS;
  const loads: Measured[] = [];
  for (const factor of FIXED_RATE > 0 ? [0] : FACTORS) {
    const rate = FIXED_RATE > 0 ? FIXED_RATE : Math.round(sustainable * factor);
    await sleep(1000);
    log(`open loop at ${rate} req/s (${(rate / sustainable).toFixed(2)} × ${sustainable.toFixed(0)}) for ${SECONDS} s`);
    const overflows0 = listenOverflows();
    let genCpu = 0;
    const phase = await measured(pid, async () => {
      const load = await openLoop(url, headers, rate, SECONDS, kind);
      genCpu = load.generatorCpuUs;
      return load.answers;
    });
    const served = phase.answers.filter((a) => a.status >= 200 && a.status < 300);
    const refused = phase.answers.filter((a) => a.status === 503);
    const unanswered = phase.answers.filter((a) => a.status === 0).length;
    const goodCount = served.filter(isGood).length;
    loads.push({
      label: `${(rate / sustainable).toFixed(2)} × (${rate} req/s)`,
      rate,
      goodput: goodCount / SECONDS,
      served,
      refused,
      unanswered,
      other: phase.answers.length - served.length - refused.length - unanswered,
      late: served.length - goodCount,
      total: phase.answers.length,
      overflows: listenOverflows() - overflows0,
      phase,
      generatorCpuUs: genCpu,
      sentLate: phase.answers.map((a) => a.sentLate),
    });
  }

  console.log(`\n### Client: ${kind} (${CLIENT_KINDS[kind]})\n`);
  console.log(
    `Sustainable goodput (closed loop, ${CONNECTIONS} clients): ${sustainable.toFixed(0)} 2xx/s, p99 ${ms(closedOk, 0.99)} ms, server ${cpu(closed)} CPU/answer, load generator ${generatorCpuUs.toFixed(0)} µs CPU/request.\n`,
  );
  console.log(
    "| open loop | goodput (2xx within the deadline) | served: p50 / p99 from due (from sending) | refused 503: share, within 100 ms / p50 / p99 from due (from sending) | 503s with Retry-After | unanswered / other / 2xx too late | SYNs dropped | generator: sent late p50 / p99, CPU/request | server CPU/answer |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const m of loads) {
    const atOnce = m.refused.filter((a) => a.ms <= TARGET_REFUSAL_P99_MS).length;
    console.log(
      `| ${m.label} | ${m.goodput.toFixed(0)}/s = ${pct(m.goodput / sustainable)} | ${ms(m.served, 0.5)} / ${ms(m.served, 0.99)} ms (${fromSent(m.served, 0.5)} / ${fromSent(m.served, 0.99)}) | ${pct(m.refused.length / Math.max(1, m.total))}, ${pct(atOnce / Math.max(1, m.refused.length))} / ${ms(m.refused, 0.5)} / ${ms(m.refused, 0.99)} ms (${fromSent(m.refused, 0.5)} / ${fromSent(m.refused, 0.99)}) | ${m.refused.filter((a) => a.retryAfter).length} of ${m.refused.length} | ${m.unanswered} / ${m.other} / ${m.late} | ${m.overflows} | ${percentile(m.sentLate, 0.5).toFixed(1)} / ${percentile(m.sentLate, 0.99).toFixed(1)} ms, ${m.generatorCpuUs.toFixed(0)} µs | ${cpu(m.phase)} |`,
    );
  }
  // The targets, at the highest rate.
  const top = loads[loads.length - 1];
  const share = top.goodput / sustainable;
  const refusedP99 = percentile(
    top.refused.map((a) => a.ms),
    0.99,
  );
  const withRetryAfter = top.refused.filter((a) => a.retryAfter).length;
  console.log(`\nAt ${top.label}:\n`);
  console.log("| target | measured | |");
  console.log("|---|---|---|");
  console.log(`| goodput ≥ ${pct(TARGET_GOODPUT)} of sustainable | ${pct(share)} | ${mark(share >= TARGET_GOODPUT)} |`);
  console.log(
    `| the excess refused at once: 503 p99 < ${TARGET_REFUSAL_P99_MS} ms from due | ${top.refused.length} refused, p99 ${refusedP99.toFixed(1)} ms | ${mark(top.refused.length > 0 && refusedP99 < TARGET_REFUSAL_P99_MS)} |`,
  );
  console.log(
    `| every 503 with Retry-After | ${withRetryAfter} of ${top.refused.length} | ${mark(withRetryAfter === top.refused.length)} |`,
  );
  console.log(
    `| none unanswered, no other status | ${top.unanswered} / ${top.other} | ${mark(top.unanswered === 0 && top.other === 0)} |`,
  );
  console.log(
    `| no SYN dropped (ListenOverflows, whole machine; each waits a second or more, unseen) | ${top.overflows} | ${mark(top.overflows === 0)} |`,
  );
  console.log(
    `| load generator on time (sent late p99 < ${TARGET_GENERATOR_LATE_MS} ms; else it, not the server, is short of CPU) | ${percentile(top.sentLate, 0.99).toFixed(1)} ms | ${mark(percentile(top.sentLate, 0.99) < TARGET_GENERATOR_LATE_MS)} |`,
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
