// `node bench/domain-purge.ts [--quick] [--postgres[=URL]]`: suspending a domain while people
// read. The seed (bench/lib/seed-domain-purge.ts, straight through the database) holds 1,000
// remote accounts on purge.example with 20,000 posts, 200 accounts of another domain, and a
// reader following 200 of the doomed accounts and all the others, its home feed holding their
// posts. The server is started as `npm start` starts it; an open-loop generator in this process
// asks for the reader's home timeline at a fixed rate (each latency counted from the request's
// scheduled time, so a stalled server cannot hide its queue); after a baseline, an Owner suspends
// purge.example through the admin API, and the purge is over when no job of it is left.
// Printed beside the targets: the purge's duration (60 s) and the home timeline's p99 while it
// runs (50 ms), with the p99 before it for comparison.
//   BENCH_PURGE_RATE=500     home timeline requests per second
//   BENCH_PURGE_BASELINE=5   seconds of reading before the block (2 with --quick)
//   PURGE_ACCOUNTS=1000 PURGE_STATUSES_PER_ACCOUNT=20   a smaller seed, for development
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
import { send, waitUntilAnswering } from "./lib/http.ts";
import { openLoop, stats } from "./lib/open-loop.ts";
import { parseOptions, wholeNumber } from "./lib/options.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const START = startCommand();
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const opts = parseOptions(
  argv.filter((a) => a !== "--quick"),
  process.env,
);
const RATE = wholeNumber(process.env, "BENCH_PURGE_RATE", 500);
const BASELINE_S = wholeNumber(process.env, "BENCH_PURGE_BASELINE", quick ? 2 : 5);
const TARGET_PURGE_S = 60;
const TARGET_P99_MS = 50;
const PURGE_JOBS = ["moderation.domain-block", "moderation.domain-purge", "moderation.severed-relationships-notify"];
const LIMIT_MS = 600_000;

const log = (m: string) => process.stderr.write(`[domain-purge] ${m}\n`);

async function pending(db: BenchDatabase): Promise<number> {
  let n = 0;
  for (const name of PURGE_JOBS) n += await db.pendingJobs(name);
  return n;
}

let server: Child | undefined;
let dataDir: string | undefined;
let benchDb: BenchDatabase | undefined;

async function main() {
  dataDir = mkdtempSync(join(tmpdir(), "gannet-bench-purge-"));
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
    RATE_LIMITS: "off",
    LOG_LEVEL: "warning",
    BIND: "127.0.0.1",
  };
  for (const args of START.buildCommands) await runChild(NODE, args, { env }, 120_000);
  log(`seeding ${dataDir} on ${database.label}`);
  const seeded = await runChild(NODE, [join(BENCH_DIR, "lib/seed-domain-purge.ts")], { env }, 600_000);
  const readerToken = /^READER_TOKEN=(\S+)$/m.exec(seeded)?.[1];
  const adminToken = /^ADMIN_TOKEN=(\S+)$/m.exec(seeded)?.[1];
  const shape = /^SEEDED=(.+)$/m.exec(seeded)?.[1];
  if (!readerToken || !adminToken) throw new Error(`the seed printed no tokens:\n${seeded}`);
  log(`seeded: ${shape}`);

  const t0 = performance.now();
  server = startChild(NODE, START.serverArgs, { env: { ...env, ...START.env } });
  await waitUntilAnswering(`${origin}/health`, server, t0);
  await database.open(dataDir);
  const home = `${origin}/api/v1/timelines/home`;
  const readerHeaders = { Authorization: `Bearer ${readerToken}` };
  // Warm-up: the server's first requests compile and fill caches.
  const warm = openLoop(home, readerHeaders, Math.min(RATE, 100));
  await sleep(2000);
  await warm.stop();

  const load = openLoop(home, readerHeaders, RATE);
  await sleep(BASELINE_S * 1000);
  const purgeStart = performance.now();
  const r = await send(
    `${origin}/api/v1/admin/domain_blocks`,
    "POST",
    { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    JSON.stringify({ domain: "purge.example", severity: "suspend" }),
  );
  if (r.status !== 200) throw new Error(`POST /api/v1/admin/domain_blocks answered ${r.status}: ${r.body}`);
  let purgeEnd = Number.NaN;
  while (performance.now() - purgeStart < LIMIT_MS) {
    await sleep(100);
    if ((await pending(database)) === 0) {
      purgeEnd = performance.now();
      break;
    }
  }
  await load.stop();
  const problems = server
    .output()
    .split("\n")
    .filter((l) => /error|fail/i.test(l));
  if (problems.length > 0) log(`server errors:\n${problems.slice(-20).join("\n")}`);
  const before = stats(load.samples, 0, purgeStart);
  const during = stats(load.samples, purgeStart, Number.isNaN(purgeEnd) ? Number.POSITIVE_INFINITY : purgeEnd);
  const purgeS = (purgeEnd - purgeStart) / 1000;
  const mark = (ok: boolean) => (ok ? "✅" : "❌");

  console.log(`## Domain suspension purge (${database.label})\n`);
  console.log(
    `${shape}; home timeline asked at ${RATE}/s (open loop, latency from each request's due time); ` +
      `${BASELINE_S} s of reading before the block\n`,
  );
  console.log("| workload | figure | target |");
  console.log("|---|---|---|");
  console.log(
    `| domain suspension purge | ${Number.isNaN(purgeS) ? `not done after ${LIMIT_MS / 1000} s` : `${purgeS.toFixed(1)} s`} | ≤ ${TARGET_PURGE_S} s ${mark(purgeS <= TARGET_PURGE_S)} |`,
  );
  console.log(
    `| home timeline during the purge | p50 ${during.p50.toFixed(1)} ms, p99 ${during.p99.toFixed(1)} ms, max ${during.max.toFixed(0)} ms (${during.count} requests, ${during.failed} failed${during.failed > 0 ? `: ${during.failures}` : ""}) | p99 < ${TARGET_P99_MS} ms ${mark(during.p99 < TARGET_P99_MS && during.failed === 0)} |`,
  );
  console.log(
    `| home timeline before the purge | p50 ${before.p50.toFixed(1)} ms, p99 ${before.p99.toFixed(1)} ms (${before.count} requests, ${before.failed} failed${before.failed > 0 ? `: ${before.failures}` : ""}) | (for comparison) |`,
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
