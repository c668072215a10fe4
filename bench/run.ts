// `npm run bench`: start-up time, memory and HTTP throughput of one Gannet process on SQLite (or
// PostgreSQL), beside a bare `node:http` baseline measured in the same run (method: the benchmarks
// guide). The data is seeded first (bench/seed.ts: 2,000 accounts, 200,000 statuses, materialised
// home feeds, blocks, mutes and lists); then the timelines, notifications, relationships, a
// followers page and posting are measured, and the fan-out delay. Last among the reads, the
// reader's 20 keyword filters are created through the API and its home timeline is measured
// again, beside the unfiltered one. The trends lists are among the reads, and the trends scoring
// job is timed in the server before the filters, while the home timeline is read at a steady
// rate (bench/lib/trends.ts). The web side's pages are read too: the author's profile and one of its
// posts (closed loop beside the bare server with the same body, and open loop at 500 req/s for the
// p99) and the RSS feed of the busiest hashtag (bench/lib/web-pages.ts), and the web client's home
// page for the signed-in reader, with its HTML and scripts' compressed size (bench/lib/client-home.ts).
//   --quick                 a short smoke run (1 s warm-up, one 3 s run per workload)
//   --postgres[=URL]        on PostgreSQL (also when DATABASE_URL is set): a fresh database is
//                           created on that server for the run and dropped afterwards
//   --split                 with --postgres: only the home timeline and posting, on one process
//                           and then split over processes behind a front (bench/split.ts)
//   --redis[=URL]           the server gets REDIS_URL (default redis://127.0.0.1:6379): event bus,
//                           job queue and rate limits in Redis (without it, on PostgreSQL the bus is
//                           LISTEN/NOTIFY; the jobs' counts the harness reads are in the database,
//                           so use it with BENCH_ONLY=verify,home and the like)
//   BENCH_DURATION=10       seconds per measured run       BENCH_WARMUP=3   warm-up seconds
//   BENCH_CONNECTIONS=50    concurrent connections         BENCH_RUNS=3     runs per workload (median)
//   BENCH_POST_RATE=5       posts/s in the posting workload (open loop)
//   BENCH_FANOUT_SAMPLES=5  posts timed one by one for the fan-out delay
//   BENCH_TRENDS_RATE=500   home timeline requests/s while the trends are scored
//   BENCH_TRENDS_RUNS=3     trends scoring runs measured
//   BENCH_ONLY=home,post    only the workloads whose name contains one of these words (also
//                           relationships, /followers, filters, trends, scoring, page, rss, home-page,
//                           delivery; the
//                           filtered home timeline brings the unfiltered one along, for its target)
// Last, each on a server of its own: bench/delivery.ts measures federation delivery,
// bench/inbox.ts inbox ingestion, bench/inbox-abuse.ts the cost of refusing bad inbox requests,
// bench/streaming.ts 10,000 WebSocket clients and bench/domain-purge.ts the suspension of a domain
// while the home timeline is read (BENCH_ONLY=delivery, inbox, abuse, streaming or purge).
//   SEED_*                  smaller seed shapes, for development (see bench/seed.ts)
// Prints a Markdown table and writes bench/results/latest.json. Exits 0 when a target fails (the
// table says so) and 1 only when the harness itself breaks.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { probe, startBaseline } from "./lib/baseline.ts";
import {
  type Child,
  freePort,
  killAllChildren,
  NODE,
  REPO_ROOT,
  runChild,
  sleep,
  startChild,
  startCommand,
  stopChild,
} from "./lib/children.ts";
import { homePageTargets, prepareHomePage } from "./lib/client-home.ts";
import { type BenchDatabase, postgresDatabase, sqliteDatabase } from "./lib/database.ts";
import { FAN_OUT_JOB, measureFanOut, waitForJobs } from "./lib/fan-out.ts";
import { BENCH_FILTERS, createFiltersThroughApi } from "./lib/filters.ts";
import { get, waitUntilAnswering } from "./lib/http.ts";
import { type LoadJob, medianRun, runLoad } from "./lib/load.ts";
import { notificationTargets, prepareNotifications } from "./lib/notification-workloads.ts";
import { type Options, parseOptions } from "./lib/options.ts";
import { clockTicksPerSecond, memory } from "./lib/proc.ts";
import {
  BARE,
  BARE_PAGE,
  evaluateTargets,
  FOLLOWERS,
  HOME,
  HOME_FILTERED,
  median,
  mib,
  POST_STATUS,
  postgresTargets,
  RELATIONSHIPS,
  type Report,
  renderMarkdown,
  VERIFY_CREDENTIALS,
  type WorkloadResult,
} from "./lib/report.ts";
import { prepareData, seedData } from "./lib/seed-run.ts";
import { type PrepareArgs, prepareTimelines, timelineTargets } from "./lib/timeline-workloads.ts";
import { measureScoring, prepareTrends, type ScoringResult, trendsTargets } from "./lib/trends.ts";
import { prepareWebPages, webPageTargets } from "./lib/web-pages.ts";
import { runSplit } from "./split.ts";

/**
 * The server is started the way `npm start` starts it: the same Node flags and entry point,
 * read from package.json's `start` script (its last `node ...` command), after the same build.
 */
const START = startCommand();
const SERVER_ARGS = process.env.BENCH_SERVER_ARGS?.split(/\s+/) ?? START.serverArgs;
const BUILD_COMMANDS = START.buildCommands;

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const STARTS = 3;
const IDLE_MS = 2000;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  baseline?: string;
  method?: "GET" | "POST";
  body?: string;
  rate?: number;
}

/** The temporary data directory, removed however the harness ends. */
let dataDir: string | undefined;
/** The harness's connection to the server's database (a PostgreSQL one is dropped at the end). */
let benchDb: BenchDatabase | undefined;
/** The running servers, checked after every workload. */
const servers: Child[] = [];

function log(msg: string): void {
  process.stderr.write(`bench: ${msg}\n`);
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** Starts the server STARTS times on the prepared data; the last one keeps running. */
async function measureStartups(env: NodeJS.ProcessEnv, origin: string): Promise<{ server: Child; ms: number[] }> {
  const ms: number[] = [];
  let server: Child | undefined;
  for (let i = 0; i < STARTS; i++) {
    if (server) await stopChild(server);
    const t0 = performance.now();
    server = startChild(NODE, SERVER_ARGS, { env: { ...env, ...START.env } });
    servers[0] = server;
    ms.push(await waitUntilAnswering(`${origin}/health`, server, t0));
    log(`start-up ${i + 1}/${STARTS}: ${ms[i].toFixed(0)} ms`);
  }
  if (!server) throw new Error("no start-up measured");
  return { server, ms };
}

async function runWorkloads(targets: (Target & { pid: number })[], opts: Options): Promise<WorkloadResult[]> {
  const ticks = clockTicksPerSecond();
  const results: WorkloadResult[] = [];
  for (const t of targets) {
    const job: LoadJob = {
      url: t.url,
      headers: t.headers,
      connections: opts.connections,
      warmupSeconds: opts.warmupSeconds,
      durationSeconds: opts.durationSeconds,
      runs: opts.runs,
      method: t.method,
      body: t.body,
      rate: t.rate,
    };
    log(`load: ${t.name} (${opts.warmupSeconds} s warm-up, ${opts.runs} × ${opts.durationSeconds} s)`);
    const runs = await runLoad(job, t.pid, ticks);
    const m = medianRun(runs);
    log(
      `  ${Math.round(m.okRps)} 2xx req/s, p99 ${m.p99Ms?.toFixed(2)} ms, ${m.cpuUsPerRequest?.toFixed(1)} µs CPU/req`,
    );
    results.push({ name: t.name, baseline: t.baseline, rate: t.rate, median: m, runs });
    for (const s of servers) {
      const ended = s.process.exitCode ?? s.process.signalCode;
      if (ended !== null) throw new Error(`a server exited during the load (${ended}):\n${s.output()}`);
    }
  }
  return results;
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2), process.env);
  const dir = mkdtempSync(join(tmpdir(), "gannet-bench-"));
  dataDir = dir;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const database = opts.postgresUrl ? await postgresDatabase(opts.postgresUrl) : sqliteDatabase();
  benchDb = database;
  // The explicit values keep a developer's .env from switching the database or adding Redis.
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dir,
    DATABASE_URL: database.serverUrl,
    REDIS_URL: opts.redisUrl ?? "",
    REDIS_NAMESPACE: `gannet-bench-${process.pid}`,
    RATE_LIMITS: "off",
    // 50 closed-loop connections saturate the slow workloads: throughput is measured here,
    // refusing the excess by `npm run bench:overload`.
    LOAD_SHEDDING: "off",
    LOG_LEVEL: "warning",
    BIND: "127.0.0.1",
    // Trends as shipped: review on, the seed's moderators have approved the bursts (seed-trends.ts).
    TRENDS_ENABLED: "true",
    TRENDS_REVIEW_TAGS: "true",
    TRENDS_REVIEW_STATUSES: "true",
    TRENDS_REVIEW_LINKS: "true",
  };
  const notes: string[] = [];
  const chosen = (name: string) => opts.only.length === 0 || opts.only.some((w) => name.toLowerCase().includes(w));
  // The filtered home timeline's target compares it with the unfiltered one, measured alongside.
  const wanted = (name: string) => chosen(name) || (name === HOME && chosen(HOME_FILTERED));

  log(`setting up ${dir} on ${database.label}`);
  for (const args of BUILD_COMMANDS) await runChild(NODE, args, { env }, 120_000);
  log("seeding (bench/seed.ts)");
  const seeded = await seedData(env);
  log(`seeded in ${(seeded.ms / 1000).toFixed(1)} s: ${seeded.counts}`);
  const token = await prepareData(env);
  await database.open(dir);
  if (opts.split) return runSplit({ opts, env, database, seeded, port, log });
  const { server, ms: startupMs } = await measureStartups(env, origin);
  await sleep(IDLE_MS);
  const afterStartup = memory(server.pid);
  log(`resident memory after start-up: ${mib(afterStartup.rss)}`);

  const reader = { Authorization: `Bearer ${seeded.readerToken}` };
  const author = { Authorization: `Bearer ${seeded.authorToken}` };
  const gannet: Target[] = [
    { name: "GET /api/v1/instance", url: `${origin}/api/v1/instance`, headers: {}, baseline: BARE },
    { name: "GET /nodeinfo/2.0", url: `${origin}/nodeinfo/2.0`, headers: {}, baseline: BARE },
    {
      name: VERIFY_CREDENTIALS,
      url: `${origin}/api/v1/accounts/verify_credentials`,
      headers: { Authorization: `Bearer ${token}` },
      baseline: BARE,
    },
    {
      name: RELATIONSHIPS,
      url: `${origin}/api/v1/accounts/relationships?${seeded.relationshipIds.map((id) => `id[]=${id}`).join("&")}`,
      headers: reader,
    },
    { name: FOLLOWERS, url: `${origin}/api/v1/accounts/${seeded.authorId}/followers?limit=40`, headers: reader },
    // Last of the reads: the reader's filters are created right after it, for the filtered run.
    { name: HOME, url: `${origin}/api/v1/timelines/home?limit=40`, headers: reader, baseline: BARE_PAGE },
  ];
  const { probes, baseline } = await probe(gannet, notes, log);
  const homeProbe = await get(`${origin}/api/v1/timelines/home?limit=40`, reader);
  // The trends lists as the server that is measured scores them now (it ran once at its start).
  const trendsPrep = await prepareTrends(origin, reader, database, wanted, probes, notes, log);
  const trends: Target[] = trendsPrep.targets;
  // The author's pages and the busiest hashtag's feed, as an anonymous browser or reader asks them.
  const webPrep = await prepareWebPages(origin, seeded, wanted, probes, notes, log);
  // The web client's home page, for the reader signed in through the sign-in form.
  const homePagePrep = await prepareHomePage(origin, wanted, probes, notes, log);
  // Every timeline but home, and the notifications and conversations, each with its own body.
  const prepArgs: PrepareArgs = {
    origin,
    seeded,
    wanted,
    probes,
    notes,
    log,
    postgres: opts.postgresUrl !== undefined,
  };
  const timelinesPrep = await prepareTimelines(prepArgs);
  const notificationsPrep = await prepareNotifications(prepArgs);
  const listed = [timelinesPrep, notificationsPrep];
  const pages = [
    { name: BARE_PAGE, body: homeProbe.body },
    ...listed.flatMap((x) => x.pages),
    ...trendsPrep.pages,
    ...webPrep.pages,
    ...homePagePrep.pages,
  ];
  const bareChild = await startBaseline(dir, baseline, pages);
  servers[1] = bareChild.child;
  const bare = bareChild.targets.filter(
    (t) =>
      t.name === BARE ||
      t.name === BARE_PAGE ||
      trends.some((x) => x.baseline === t.name) ||
      listed.some((p) => p.targets.some((x) => x.baseline === t.name)) ||
      webPrep.targets.some((x) => x.baseline === t.name) ||
      homePagePrep.targets.some((x) => x.baseline === t.name),
  );
  notes.push(
    `The bare server's second body is the home timeline page (${homeProbe.body.length} bytes); every other ` +
      "timeline and the notifications are compared with a bare server serving their own body (sizes above).",
  );
  const relationshipsProbe = await get(gannet.find((t) => t.name === RELATIONSHIPS)?.url ?? "", reader);
  const followersProbe = await get(`${origin}/api/v1/accounts/${seeded.authorId}/followers?limit=40`, reader);
  notes.push(
    `Relationships: ${seeded.relationshipIds.length} ids asked, ${JSON.parse(relationshipsProbe.body.toString("utf8")).length} ` +
      `answered (${relationshipsProbe.body.length} bytes); the author's followers page held ` +
      `${JSON.parse(followersProbe.body.toString("utf8")).length} accounts (the query leaves out those the reader blocks, mutes or is blocked by).`,
  );
  // The trends lists join the reads before the home timeline (the reader's filters come after it).
  const reads = [
    ...gannet.slice(0, 3),
    ...listed.flatMap((x) => x.targets),
    ...gannet.slice(3, -1),
    ...trends,
    ...webPrep.targets,
    ...homePagePrep.targets,
    ...gannet.slice(-1),
  ];
  const workloads = await runWorkloads(
    reads.filter((t) => wanted(t.name)).map((t) => ({ ...t, pid: server.pid })),
    opts,
  );
  // The scoring job while the reader's (unfiltered) home timeline is asked at a steady rate.
  let scoring: ScoringResult | undefined;
  if (chosen("trends scoring")) {
    log(`trends scoring: ${opts.trendRuns} runs while the home timeline is asked ${opts.trendRate} times a second`);
    scoring = await measureScoring({
      url: `${origin}/api/v1/timelines/home?limit=40`,
      headers: reader,
      db: database,
      runs: opts.trendRuns,
      rate: opts.trendRate,
      baselineS: opts.warmupSeconds + 2,
    });
    log(`  ${scoring.runsMs.map((x) => x.toFixed(0)).join(", ")} ms; home p99 ${scoring.during.p99.toFixed(1)} ms`);
  }

  // The same home timeline once the reader has 20 keyword filters, created through the API.
  if (wanted(HOME_FILTERED)) {
    const filtered = { ...gannet.find((t) => t.name === HOME)!, name: HOME_FILTERED };
    const ids = await createFiltersThroughApi(origin, seeded.readerToken);
    const keywords = BENCH_FILTERS.reduce((n, f) => n + f.keywords.length, 0);
    const hiding = BENCH_FILTERS.filter((f) => f.action === "hide").length;
    const a = await get(filtered.url, reader);
    const page = JSON.parse(a.body.toString("utf8")) as { filtered?: unknown[] }[];
    const flagged = page.filter((st) => (st.filtered?.length ?? 0) > 0).length;
    probes.push({
      path: "/api/v1/timelines/home (20 filters)",
      status: a.status,
      contentType: a.contentType,
      bytes: a.body.length,
    });
    log(
      `probe home with ${ids.length} filters: ${a.status} ${a.body.length} B, ${page.length} statuses, ${flagged} filtered`,
    );
    notes.push(
      `Filtered home timeline: ${ids.length} filters of ${keywords / ids.length} keywords (${hiding} hide, the rest warn; ` +
        `bench/lib/filters.ts) created through POST /api/v2/filters after the unfiltered runs; its page held ` +
        `${page.length} statuses (${40 - page.length} of 40 hidden by a hide filter), ${flagged} of them with ` +
        `\`filtered\` results, ${a.body.length} bytes against ${homeProbe.body.length} unfiltered.`,
    );
    workloads.push(...(await runWorkloads([{ ...filtered, pid: server.pid }], opts)));
  }
  workloads.push(
    ...(await runWorkloads(
      bare.map((t) => ({ ...t, pid: servers[1].pid })),
      opts,
    )),
  );

  // Posting: first the fan-out delay, one post at a time on an idle server, then a posting load.
  let fanOut: Report["fanOut"];
  if (wanted(POST_STATUS)) {
    const me = await get(`${origin}/api/v1/accounts/verify_credentials`, author);
    const followers = Number(JSON.parse(me.body.toString("utf8")).followers_count);
    log(`fan-out: ${opts.fanOutSamples} posts to ${followers} followers, one at a time`);
    const samples = await measureFanOut({
      origin,
      token: seeded.authorToken,
      authorId: seeded.authorId,
      followers,
      db: database,
      samples: opts.fanOutSamples,
      limitMs: 30_000,
    });
    log(
      `  POST ${samples.map((x) => x.postMs.toFixed(1)).join(", ")} ms; in all feeds after ${samples.map((x) => x.delayMs.toFixed(0)).join(", ")} ms`,
    );
    fanOut = { followers, samples };
    const posting: Target & { pid: number } = {
      name: POST_STATUS,
      url: `${origin}/api/v1/statuses`,
      headers: { ...author, "Content-Type": "application/json" },
      method: "POST",
      body: JSON.stringify({ status: "Benchmark post #bench", visibility: "public" }),
      rate: opts.postRate,
      pid: server.pid,
    };
    workloads.push(...(await runWorkloads([posting], opts)));
    fanOut.drainAfterLoadMs = await waitForJobs(database, FAN_OUT_JOB, 300_000);
    log(`  fan-out jobs left after the posting load finished in ${(fanOut.drainAfterLoadMs / 1000).toFixed(1)} s`);
  }
  const afterBenchmark = memory(server.pid);

  const mem = { afterStartup, afterBenchmark };
  const vc = workloads.find((w) => w.name === VERIFY_CREDENTIALS)?.median;
  const bareCpu = workloads.find((w) => w.name === BARE)!.median.cpuUsPerRequest;
  notes.push(
    `Start-ups: ${startupMs.map((s) => `${s.toFixed(0)} ms`).join(", ")}.`,
    `Server RSS after start-up: ${mib(afterStartup.anon)} anonymous + ${mib(afterStartup.file)} file-backed; ` +
      `after the benchmark: ${mib(afterBenchmark.anon)} + ${mib(afterBenchmark.file)}, ` +
      `peak (VmHWM) ${mib(afterBenchmark.peak)}.`,
    "Server CPU/request = utime+stime of the server process over a measured run ÷ all answered requests" +
      (vc
        ? `; verify_credentials costs ${(vc.cpuUsPerRequest / bareCpu).toFixed(1)}× the bare server's CPU per request`
        : "") +
      " (the steadier figure on a shared machine). Run spread = (fastest − slowest run) ÷ median.",
    `Posting is measured open loop at ${opts.postRate} posts/s (autocannon --overallRate, which opens at most ` +
      "one connection per post per second): closed loop, posts would outrun the fan-out jobs without bound. " +
      "Its CPU per request includes the fan-out jobs run meanwhile.",
  );
  const report: Report = {
    meta: {
      node: execFileSync(NODE, ["--version"], { encoding: "utf8" }).trim(),
      commit:
        git(["rev-parse", "--short", "HEAD"]) +
        (git(["status", "--porcelain", "--untracked-files=no"]) ? "+dirty" : ""),
      database: database.label + (opts.redisUrl ? " + Redis" : ""),
      date: new Date().toISOString(),
      cpus: availableParallelism(),
      connections: opts.connections,
      warmupSeconds: opts.warmupSeconds,
      durationSeconds: opts.durationSeconds,
      runs: opts.runs,
    },
    startup: { runsMs: startupMs, medianMs: median(startupMs), probe: "/health" },
    memory: mem,
    probes,
    seed: { ms: seeded.ms, counts: seeded.counts },
    workloads,
    fanOut,
    targets: [
      ...evaluateTargets(workloads, startupMs, mem, fanOut),
      ...(opts.postgresUrl ? postgresTargets(workloads) : []),
      ...trendsTargets(workloads, scoring),
      ...webPageTargets(workloads),
      ...homePageTargets(workloads, homePagePrep.weight),
      ...timelineTargets(workloads, opts.postgresUrl !== undefined),
      ...notificationTargets(workloads, opts.postgresUrl !== undefined),
    ],
    scoring,
    notes,
  };
  process.stdout.write(`\n${renderMarkdown(report)}\n`);
  const resultsDir = join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, opts.postgresUrl ? "latest-postgres.json" : "latest.json");
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${file}`);
  // Each on a server of its own: federation delivery (bench/delivery.ts: its seed and fake
  // servers), inbox ingestion (bench/inbox.ts: signed activities from fake servers), refusals of
  // bad inbox requests (bench/inbox-abuse.ts), 10,000 WebSocket clients (bench/streaming.ts:
  // memory and delivery) and a domain suspension's purge under reading (bench/domain-purge.ts).
  // Their table rows are printed.
  const separate: [name: string, script: string, limitMs: number][] = [
    ["delivery", "delivery.ts", 600_000],
    ["inbox", "inbox.ts", 600_000],
    ["inbox-abuse", "inbox-abuse.ts", 300_000],
    ["streaming", "streaming.ts", 1_200_000],
    ["domain-purge", "domain-purge.ts", 1_200_000],
  ];
  for (const [name, script, limitMs] of separate) {
    if (!chosen(name)) continue;
    const args = [join(BENCH_DIR, script), ...(opts.postgresUrl ? [`--postgres=${opts.postgresUrl}`] : [])];
    const out = await runChild(NODE, args, { env: process.env }, limitMs);
    const rows = out.split("\n").filter((l) => l.startsWith("|") || l.startsWith("## "));
    process.stdout.write(`${rows.join("\n")}\n`);
  }
}

async function cleanUp(): Promise<void> {
  await Promise.all(servers.map((s) => stopChild(s)));
  killAllChildren();
  await benchDb?.close().catch((e) => log(`could not drop the benchmark database: ${e}`));
  benchDb = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    killAllChildren();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await benchDb?.close().catch(() => undefined);
    process.stderr.write(`bench: interrupted by ${signal}\n`);
    process.exit(130);
  });
}
process.once("exit", killAllChildren);

try {
  await main();
} catch (e) {
  process.stderr.write(`bench: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
