// `npm run bench:delivery` (also run by `npm run bench`): delivery of one status to 1,000 remote
// followers spread over 100 fake remote servers on loopback (bench/lib/fake-inboxes.ts, a process
// of its own; every follower has its server's shared inbox, so each server should get one copy).
// The server runs as `npm start` runs it, on SQLite or PostgreSQL (--postgres[=URL]). One post
// warms up (Fedify loads, keys are made), then BENCH_DELIVERY_SAMPLES posts (default 5) are timed
// one at a time: from sending POST /api/v1/statuses to the last of the 100 servers receiving the
// Create. Then the volume phases (bench/lib/delivery-volume.ts): BENCH_DELIVERY_BURST posts sent
// at once, deliveries per second until every server has them all (target 1,500/s); then
// BENCH_DELIVERY_BAD more servers (followers of the author too) turn bad, half hanging until the
// 10 s time-out and half answering 500, and the same burst is timed to the healthy servers (target:
// at most 10 % slower). Prints a Markdown table and writes bench/results/delivery[-postgres].json.
//   BENCH_DELIVERY_FOLLOWERS=1000  BENCH_DELIVERY_SERVERS=100  BENCH_DELIVERY_SAMPLES=5
//   BENCH_DELIVERY_BURST=30  BENCH_DELIVERY_BAD=20 (0: no slow-server phase)
//   BENCH_CPU_PROF=DIR  the server writes a V8 CPU profile (--cpu-prof) into DIR when it stops
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
import { type Burst, burst, setMode } from "./lib/delivery-volume.ts";
import { get, send, waitUntilAnswering } from "./lib/http.ts";
import { parseOptions, wholeNumber } from "./lib/options.ts";
import { clockTicksPerSecond } from "./lib/proc.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const START = startCommand();
const SERVER_ARGS = START.serverArgs;
const BUILD_COMMANDS = START.buildCommands;
const TARGET_MS = 2000;

const num = (name: string, fallback: number) => wholeNumber(process.env, name, fallback);
const FOLLOWERS = num("BENCH_DELIVERY_FOLLOWERS", 1000);
const SERVERS = num("BENCH_DELIVERY_SERVERS", 100);
const SAMPLES = num("BENCH_DELIVERY_SAMPLES", 5);
const BURST = num("BENCH_DELIVERY_BURST", 30);
const BAD = wholeNumber(process.env, "BENCH_DELIVERY_BAD", 20, 0);
const RATE_TARGET = 1500;
const SLOWDOWN_TARGET = 0.1;

const children: Child[] = [];
let dataDir: string | undefined;
let benchDb: BenchDatabase | undefined;

function log(msg: string): void {
  process.stderr.write(`bench delivery: ${msg}\n`);
}

/** Waits until `servers` fake servers got the Create of `uri`; the time the last one did (ms). */
async function arrival(control: string, uri: string, servers: number, limitMs: number): Promise<number | null> {
  const end = Date.now() + limitMs;
  for (;;) {
    const r = JSON.parse((await get(`${control}/arrivals?object=${encodeURIComponent(uri)}`)).body.toString("utf8"));
    if (r.servers >= servers) return r.lastMs as number;
    if (Date.now() > end) return null;
    await sleep(5);
  }
}

async function main(): Promise<void> {
  const opts = parseOptions(
    process.argv.slice(2).filter((a) => a !== "--quick"),
    process.env,
  );
  const dir = mkdtempSync(join(tmpdir(), "gannet-bench-delivery-"));
  dataDir = dir;
  const database = opts.postgresUrl ? await postgresDatabase(opts.postgresUrl) : sqliteDatabase();
  benchDb = database;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dir,
    DATABASE_URL: database.serverUrl,
    REDIS_URL: "",
    RATE_LIMITS: "off",
    // The burst's own posts come while the loop is saturated by the deliveries of the ones before:
    // the shedder refused some of them (503). Delivery is measured here, refusing by bench:overload.
    LOAD_SHEDDING: process.env.LOAD_SHEDDING ?? "off",
    LOG_LEVEL: "warning",
    BIND: "127.0.0.1",
    ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1",
  };
  log(`starting ${SERVERS + BAD} fake remote servers`);
  const inboxes = startChild(NODE, [join(BENCH_DIR, "lib/fake-inboxes.ts"), String(SERVERS + BAD)]);
  children.push(inboxes);
  let fake: { control: number; ports: number[] } | undefined;
  for (let i = 0; i < 200 && !fake; i++) {
    const m = /^FAKE_INBOXES=(.+)$/m.exec(inboxes.output());
    if (m) fake = JSON.parse(m[1]);
    else await sleep(50);
  }
  if (!fake) throw new Error(`the fake inboxes did not start:\n${inboxes.output()}`);
  const control = `http://127.0.0.1:${fake.control}`;
  const healthyPorts = fake.ports.slice(0, SERVERS);
  const badPorts = fake.ports.slice(SERVERS);
  const ALL = SERVERS + BAD;

  log(`setting up ${dir} on ${database.label}: ${FOLLOWERS} remote followers over ${SERVERS} servers`);
  for (const args of BUILD_COMMANDS) await runChild(NODE, args, { env }, 120_000);
  const seeded = await runChild(
    NODE,
    [join(BENCH_DIR, "lib/seed-remote-followers.ts"), ...fake.ports.map(String)],
    { env: { ...env, FOLLOWERS: String(FOLLOWERS) } },
    300_000,
  );
  const token = /^AUTHOR_TOKEN=(\S+)$/m.exec(seeded)?.[1];
  if (!token) throw new Error(`the seed printed no token:\n${seeded}`);

  const t0 = performance.now();
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const server = startChild(NODE, [...profile, ...SERVER_ARGS], { env: { ...env, ...START.env } });
  children.push(server);
  await waitUntilAnswering(`${origin}/health`, server, t0);
  const headers = { Authorization: `Bearer ${token}` };

  const samples: { postMs: number; deliveredMs: number | null }[] = [];
  for (let i = 0; i <= SAMPLES; i++) {
    const sentAt = Date.now();
    const t = performance.now();
    const res = await send(`${origin}/api/v1/statuses`, "POST", headers, JSON.stringify({ status: `Delivery ${i}` }));
    const postMs = performance.now() - t;
    if (res.status !== 200) throw new Error(`POST /api/v1/statuses answered ${res.status}: ${res.body}`);
    const uri = JSON.parse(res.body.toString("utf8")).uri as string;
    const last = await arrival(control, uri, ALL, 60_000);
    const deliveredMs = last === null ? null : last - sentAt;
    if (i === 0) {
      log(`warm-up post: in all ${ALL} inboxes after ${deliveredMs ?? "more than 60 000"} ms`);
    } else {
      samples.push({ postMs, deliveredMs });
      log(`post ${i}: answered in ${postMs.toFixed(1)} ms, in all ${ALL} inboxes after ${deliveredMs} ms`);
    }
    await sleep(500);
  }
  const stats = JSON.parse((await get(`${control}/arrivals?object=`)).body.toString("utf8"));
  const ticks = clockTicksPerSecond();
  const phase = (label: string, ports: number[]) =>
    burst(origin, control, headers, BURST, ports, server.pid, ticks, label).then((b) => {
      log(
        `${label}: ${BURST} posts to ${ports.length} servers in ${b.ms ?? "more than 180 000"} ms (${b.deliveriesPerSecond?.toFixed(0) ?? "–"} deliveries/s, ${b.cpuMsPerDelivery.toFixed(2)} ms CPU each, ${b.mainCpuMsPerDelivery.toFixed(2)} ms on the main thread)`,
      );
      return b;
    });
  const volume = await phase("volume", fake.ports);
  await sleep(1000);
  let clean: Burst | undefined;
  let withBad: Burst | undefined;
  if (BAD > 0) {
    clean = await phase("healthy servers, all healthy", healthyPorts);
    await sleep(1000);
    const half = Math.ceil(BAD / 2);
    await setMode(control, badPorts.slice(0, half), badPorts.slice(half));
    withBad = await phase(`healthy servers, ${half} hanging and ${BAD - half} failing`, healthyPorts);
    await setMode(control, [], []);
  }
  const slowdown = clean?.ms && withBad?.ms ? withBad.ms / clean.ms - 1 : null;
  const volumeRate = volume.deliveriesPerSecond ?? 0;
  const delivered = samples.map((s) => s.deliveredMs ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  const medianMs = delivered[Math.floor(delivered.length / 2)];
  const worstMs = delivered.at(-1) ?? Number.POSITIVE_INFINITY;
  const report = {
    database: database.label,
    date: new Date().toISOString(),
    followers: FOLLOWERS,
    servers: SERVERS,
    samples,
    medianMs,
    worstMs,
    postsReceived: stats.posts,
    target: { goalMs: TARGET_MS, pass: worstMs < TARGET_MS },
    volume,
    clean,
    withBad,
    slowdown,
    volumeTarget: { deliveriesPerSecond: RATE_TARGET, pass: volumeRate >= RATE_TARGET },
    slowdownTarget: { max: SLOWDOWN_TARGET, pass: slowdown !== null && slowdown <= SLOWDOWN_TARGET },
  };
  const line = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : "not delivered");
  process.stdout.write(
    [
      "",
      `| delivery of one status (${database.label}) | figure | goal | |`,
      "|---|---|---|---|",
      `| ${FOLLOWERS} followers on ${ALL} servers: all inboxes have it, median of ${SAMPLES} | ${line(medianMs)} | < 2 s | ${medianMs < TARGET_MS ? "✔" : "✘"} |`,
      `| the slowest of the ${SAMPLES} posts | ${line(worstMs)} | < 2 s | ${worstMs < TARGET_MS ? "✔" : "✘"} |`,
      `| POSTs received by the fake servers (all posts, warm-up included) | ${stats.posts} | ${(SAMPLES + 1) * ALL} (one per server per post) | ${stats.posts === (SAMPLES + 1) * ALL ? "✔" : "✘"} |`,
      `| ${BURST} posts at once to ${ALL} servers: deliveries per second | ${volume.deliveriesPerSecond?.toFixed(0) ?? "not delivered"} (${volume.cpuMsPerDelivery.toFixed(2)} ms CPU each) | ≥ ${RATE_TARGET} | ${volumeRate >= RATE_TARGET ? "✔" : "✘"} |`,
      ...(clean && withBad
        ? [
            `| the same to the ${SERVERS} healthy servers, all healthy / with ${BAD} bad (half hanging 10 s, half 500) | ${line(clean.ms ?? Number.POSITIVE_INFINITY)} / ${line(withBad.ms ?? Number.POSITIVE_INFINITY)} | | |`,
            `| healthy servers delayed by the bad ones | ${slowdown === null ? "not delivered" : `${(slowdown * 100).toFixed(1)} %`} | ≤ ${SLOWDOWN_TARGET * 100} % | ${slowdown !== null && slowdown <= SLOWDOWN_TARGET ? "✔" : "✘"} |`,
          ]
        : []),
      "",
    ].join("\n"),
  );
  const resultsDir = join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, opts.postgresUrl ? "delivery-postgres.json" : "delivery.json");
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${file}`);
}

async function cleanUp(): Promise<void> {
  for (const c of children) await stopChild(c);
  killAllChildren();
  await benchDb?.close().catch((e) => log(`could not drop the benchmark database: ${e}`));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

process.once("exit", killAllChildren);
try {
  await main();
} catch (e) {
  process.stderr.write(`bench delivery: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
