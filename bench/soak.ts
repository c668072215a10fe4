// `npm run bench:soak [-- --postgres[=URL]]`: a mixed open-loop soak (issue 20). One Gannet server
// started as `npm start` starts it, on a seeded instance (bench/seed.ts, a moderate shape unless
// SEED_* say otherwise: 1,000 accounts, 50,000 statuses, the reader following 300, the author
// followed by 500), under four loads at once for BENCH_SOAK_MINUTES (30):
//   reading   home timeline, public timeline, notifications, an author's statuses and
//             verify_credentials, each asked by the soak's readers in turn;
//   posting   the soak's authors in turn, one post in four mentioning a reader and one in four
//             replying to the previous post;
//   inbox     signed Creates and Likes (3:1) from fake remote servers on loopback whose actors
//             the readers follow (bench/lib/soak-inbox.ts);
//   streaming some hundreds of WebSocket clients on `user` and `public` streams in a process of
//             their own, counting events and disconnects (bench/lib/soak-stream-clients.ts).
// Every rate is fixed (open loop: latency counts from each request's due time, per minute). Each
// minute: the server's resident memory, CPU and job-queue depth. At the end, beside the targets:
// resident memory ≤ 200 MiB (SQLite), no error answers (non-2xx, socket errors, stream
// disconnects), p99 of the last window within 20% of the first (window: a sixth of the run, five
// minutes of thirty), and the job queue drained. Prints a Markdown table and writes
// bench/results/soak[-postgres].json. Ctrl-C stops the children and removes the data.
//   BENCH_SOAK_MINUTES=30   BENCH_SOAK_READ_RATE=150 (all reading, shared by the five)
//   BENCH_SOAK_POST_RATE=2  BENCH_SOAK_INBOX_RATE=20  BENCH_SOAK_STREAM_CLIENTS=300
//   BENCH_SOAK_READERS=4    BENCH_SOAK_AUTHORS=4      BENCH_SOAK_REMOTES=4 (5 actors each)
// The default rates are half of those of the first 30-minute run (300, 4, 40), which kept the
// server's main thread at 74-87% of a core on a quiet 2-core machine and so met the load shedding
// whenever the loop lagged: at half, the main thread works about 30% of the time, leaving
// headroom for GC pauses and bursts, and no answer should be refused (docs/performance.md).
// Each minute also shows where the server's memory is (bench/lib/soak-probe-preload.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../src/config/index.ts";
import { type AppContext, createContext } from "../src/context.ts";
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
import { get, waitUntilAnswering } from "./lib/http.ts";
import { parseOptions, wholeNumber } from "./lib/options.ts";
import { clockTicksPerSecond, cpuTicks, mainThreadCpuTicks, memory } from "./lib/proc.ts";
import { inboxFire, type Remotes, startRemotes, warmUp } from "./lib/soak-inbox.ts";
import { httpClient, runOpenLoop, type Workload, workload } from "./lib/soak-load.ts";
import { freshProbe, heapSnapshot, probeEnv, readProbe, readStalls } from "./lib/soak-probe.ts";
import { type MinuteSample, type QueueDepth, report, type SoakConfig } from "./lib/soak-report.ts";
import { nextLine, withFds } from "./lib/soak-stream.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const START = startCommand();
const num = (name: string, fallback: number, min = 1) => wholeNumber(process.env, name, fallback, min);

const config: SoakConfig = {
  minutes: num("BENCH_SOAK_MINUTES", 30),
  readRate: num("BENCH_SOAK_READ_RATE", 150),
  postRate: num("BENCH_SOAK_POST_RATE", 2),
  inboxRate: num("BENCH_SOAK_INBOX_RATE", 20),
  streamClients: num("BENCH_SOAK_STREAM_CLIENTS", 300, 0),
  readers: num("BENCH_SOAK_READERS", 4),
  authors: num("BENCH_SOAK_AUTHORS", 4),
  remoteServers: num("BENCH_SOAK_REMOTES", 4),
  actorsEach: 5,
  seed: {
    SEED_ACCOUNTS: process.env.SEED_ACCOUNTS || "1000",
    SEED_STATUSES: process.env.SEED_STATUSES || "50000",
    SEED_READER_FOLLOWS: process.env.SEED_READER_FOLLOWS || "300",
    SEED_AUTHOR_FOLLOWERS: process.env.SEED_AUTHOR_FOLLOWERS || "500",
  },
};

interface Person {
  id: string;
  username: string;
  token: string;
}

const children: Child[] = [];
let dataDir: string | undefined;
let benchDb: BenchDatabase | undefined;
let harnessCtx: AppContext | undefined;
let remotes: Remotes | undefined;

function log(msg: string): void {
  process.stderr.write(`bench soak: ${msg}\n`);
}

/** Local status URIs from the public local timeline (a few pages), for the remote Likes. */
async function localStatusUris(origin: string, token: string, pages: number): Promise<string[]> {
  const uris: string[] = [];
  let max = "";
  for (let p = 0; p < pages; p++) {
    const res = await get(`${origin}/api/v1/timelines/public?local=true&limit=40${max}`, {
      Authorization: `Bearer ${token}`,
    });
    const list = JSON.parse(res.body.toString("utf8")) as { id: string; uri: string }[];
    if (list.length === 0) break;
    for (const s of list) uris.push(s.uri);
    max = `&max_id=${list.at(-1)?.id}`;
  }
  return uris;
}

/** Jobs due or running (the backlog), waiting for a later run time, and dead. */
async function queueDepth(ctx: AppContext): Promise<QueueDepth> {
  const { counts } = await ctx.queue.state();
  const depth: QueueDepth = { backlog: 0, delayed: 0, dead: 0, byName: {} };
  for (const c of counts) {
    if (c.state === "dead") depth.dead += c.count;
    else if (c.state === "delayed") depth.delayed += c.count;
    else {
      depth.backlog += c.count;
      depth.byName[c.name] = (depth.byName[c.name] ?? 0) + c.count;
    }
  }
  return depth;
}

async function main(): Promise<void> {
  const opts = parseOptions(
    process.argv.slice(2).filter((a) => a !== "--quick"),
    process.env,
  );
  const dir = mkdtempSync(join(tmpdir(), "gannet-bench-soak-"));
  dataDir = dir;
  const database = opts.postgresUrl ? await postgresDatabase(opts.postgresUrl) : sqliteDatabase();
  benchDb = database;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // The explicit values keep a developer's .env from switching the database or adding Redis.
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dir,
    DATABASE_URL: database.serverUrl,
    REDIS_URL: "",
    RATE_LIMITS: "off",
    LOG_LEVEL: "warning",
    BIND: "127.0.0.1",
    // The fake remote servers listen on loopback.
    ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1",
  };
  log(`setting up ${dir} on ${database.label}`);
  for (const args of START.buildCommands) await runChild(NODE, args, { env }, 120_000);
  log(
    `seeding (bench/seed.ts: ${Object.entries(config.seed)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")})`,
  );
  const t0 = performance.now();
  await runChild(NODE, [join(BENCH_DIR, "seed.ts")], { env: { ...env, ...config.seed } }, 900_000);
  const tokensFile = join(dir, "stream-tokens.txt");
  const setup = await runChild(
    NODE,
    [join(BENCH_DIR, "lib/soak-setup.ts")],
    {
      env: {
        ...env,
        READERS: String(config.readers),
        AUTHORS: String(config.authors),
        STREAM_USERS: "100",
        STREAM_TOKENS_FILE: tokensFile,
      },
    },
    120_000,
  );
  const listOf = (key: string) => {
    const line = new RegExp(`^${key}=(.+)$`, "m").exec(setup)?.[1];
    if (!line) throw new Error(`the soak setup printed no ${key}:\n${setup}`);
    return JSON.parse(line) as Person[];
  };
  const readers = listOf("READERS");
  const authors = listOf("AUTHORS");
  log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s; starting the server`);

  const [sh, serverArgs] = withFds([NODE, ...START.serverArgs]);
  // BENCH_SOAK_START_ENV=0: without the variables the start script exports (malloc's settings), to compare.
  const startEnv = process.env.BENCH_SOAK_START_ENV === "0" ? {} : START.env;
  const server = startChild(sh, serverArgs, { env: { ...env, ...startEnv, ...probeEnv(dir) } });
  children.push(server);
  await waitUntilAnswering(`${origin}/health`, server, performance.now(), { limitMs: 60_000 });
  // The shell exec'd node, so the child's pid is the server's.
  const pid = server.pid;
  const idle = memory(pid);

  harnessCtx = await createContext(loadConfig(env));
  const ctx = harnessCtx;
  remotes = await startRemotes(config.remoteServers, config.actorsEach);
  await warmUp(
    ctx,
    `${origin}/inbox`,
    remotes,
    readers.map((r) => r.id),
  );
  const likeable = await localStatusUris(origin, readers[0]?.token as string, 10);
  log(`${remotes.actors.length} remote actors followed by the readers; ${likeable.length} local statuses to like`);

  let streamClients: Child | undefined;
  if (config.streamClients > 0) {
    const [csh, cargs] = withFds([NODE, join(BENCH_DIR, "lib/soak-stream-clients.ts")]);
    streamClients = startChild(csh, cargs, {
      env: {
        ...process.env,
        URL: origin.replace(/^http/, "ws"),
        CLIENTS: String(config.streamClients),
        TOKENS_FILE: tokensFile,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(streamClients);
    await nextLine(streamClients, "READY", 120_000);
  }
  const streamReport = async () => {
    if (!streamClients) return undefined;
    const line = nextLine(streamClients, "REPORT", 30_000);
    streamClients.process.stdin?.write("REPORT\n");
    // A client process too busy to answer loses this minute's counts, not the run.
    return JSON.parse(await line.catch(() => "null")) ?? undefined;
  };
  await sleep(2000);
  log(`${config.streamClients} streaming clients connected; the soak begins (${config.minutes} min)`);

  const clients: ReturnType<typeof httpClient>[] = [];
  const reading = (name: string, path: (r: Person, n: number) => string) => {
    const client = httpClient();
    clients.push(client);
    return workload(name, config.readRate / 5, (n) => {
      const r = readers[n % readers.length] as Person;
      return client.call("GET", `${origin}${path(r, n)}`, { Authorization: `Bearer ${r.token}` });
    });
  };
  const posts = httpClient();
  clients.push(posts);
  let lastPost: { id: string; author: string } | undefined;
  const workloads: Workload[] = [
    reading("home timeline", () => "/api/v1/timelines/home"),
    reading("public timeline", () => "/api/v1/timelines/public"),
    reading("notifications", () => "/api/v1/notifications"),
    reading("account statuses", (_r, n) => `/api/v1/accounts/${authors[n % authors.length]?.id}/statuses`),
    reading("verify_credentials", () => "/api/v1/accounts/verify_credentials"),
    workload("posting", config.postRate, async (n) => {
      const a = authors[n % authors.length] as Person;
      const body: Record<string, unknown> = { status: `Soak post ${n} by ${a.username} #soak` };
      if (n % 4 === 1) body.status = `@${readers[n % readers.length]?.username} soak mention ${n}`;
      if (n % 4 === 2 && lastPost && lastPost.author !== a.id) body.in_reply_to_id = lastPost.id;
      const o = await posts.call(
        "POST",
        `${origin}/api/v1/statuses`,
        { Authorization: `Bearer ${a.token}` },
        JSON.stringify(body),
        true,
      );
      if (o.status === 200 && o.body) {
        const s = JSON.parse(o.body.toString("utf8")) as { id: string; uri: string };
        lastPost = { id: s.id, author: a.id };
        likeable.push(s.uri);
      }
      return { status: o.status, error: o.error };
    }),
    workload("inbox", config.inboxRate, inboxFire(`${origin}/inbox`, remotes, likeable)),
  ];

  const ticks = clockTicksPerSecond();
  const samples: MinuteSample[] = [];
  let lastTicks = cpuTicks(pid);
  let lastMain = mainThreadCpuTicks(pid);
  const streamAtStart = await streamReport();
  const idleProbe = await freshProbe(dir);
  const start = performance.now();
  const load = runOpenLoop(workloads, start);
  // BENCH_SOAK_VERBOSE=1: every 5 s, the requests in flight and the server's memory (to find stalls).
  let stallsSeen = readStalls(dir, 0).count;
  const verbose = process.env.BENCH_SOAK_VERBOSE
    ? setInterval(() => {
        const s = ((performance.now() - start) / 1000).toFixed(0);
        log(`${s} s: ${load.inFlight()} in flight, ${memory(pid).rss.toFixed(0)} MiB, CPU ${cpuTicks(pid)} ticks`);
      }, 5000)
    : undefined;
  for (let m = 1; m <= config.minutes; m++) {
    await sleep(Math.max(0, start + m * 60_000 - performance.now()));
    const ended = server.process.exitCode ?? server.process.signalCode;
    if (ended !== null) throw new Error(`the server exited during the soak (${ended}):\n${server.output()}`);
    const t = cpuTicks(pid);
    const tm = mainThreadCpuTicks(pid);
    const sample: MinuteSample = {
      minute: m,
      rssMiB: memory(pid).rss,
      probe: readProbe(dir),
      cpuPercent: ((t - lastTicks) / ticks / 60) * 100,
      mainThreadCpuPercent: ((tm - lastMain) / ticks / 60) * 100,
      queue: await queueDepth(ctx),
      inFlight: load.inFlight(),
      stream: await streamReport(),
    };
    lastTicks = t;
    lastMain = tm;
    // The server's event loop held more than 200 ms (the probe notes each; the report lists the longest).
    const stalls = readStalls(dir, stallsSeen);
    stallsSeen = stalls.count;
    sample.stalls = stalls.stalls;
    for (const x of stalls.stalls) {
      if (x.lateMs >= 1000) log(`minute ${m}: the event loop stalled ${x.lateMs} ms: ${JSON.stringify(x)}`);
    }
    samples.push(sample);
    const done = workloads.map((w) => w.minutes[m - 1]?.latencies.length ?? 0).reduce((a, b) => a + b, 0);
    log(
      `minute ${m}/${config.minutes}: ${sample.rssMiB.toFixed(0)} MiB, CPU ${sample.cpuPercent.toFixed(0)}% ` +
        `(main thread ${sample.mainThreadCpuPercent.toFixed(0)}%), ${done} requests, queue ${sample.queue.backlog}, ` +
        `in flight ${sample.inFlight}, stream ${JSON.stringify(sample.stream ?? {})}, ` +
        `stalls ${stalls.stalls.length} (longest ${Math.max(0, ...stalls.stalls.map((x) => x.lateMs))} ms)` +
        (sample.probe
          ? `, heap ${sample.probe.heapUsed}/${sample.probe.heapTotal}, external ${sample.probe.external}`
          : ""),
    );
    // A snapshot stalls the server for seconds (the next minute's latencies show it): diagnosis only.
    if (m === 1 && config.minutes > 1) await heapSnapshot(pid, "minute 1", log);
  }
  clearInterval(verbose);
  await load.stop();
  for (const c of clients) c.close();
  const atEnd = { memory: memory(pid), queue: await queueDepth(ctx), stream: await streamReport() };
  await heapSnapshot(pid, "the end", log);
  // The backlog must drain once the load stops: how long it takes (at most a minute).
  const drainStart = performance.now();
  let drained = atEnd.queue;
  while (drained.backlog > 0 && performance.now() - drainStart < 60_000) {
    await sleep(500);
    drained = await queueDepth(ctx);
  }
  const drainMs = performance.now() - drainStart;
  const commit = await runChild("git", ["rev-parse", "--short", "HEAD"], {}, 10_000).catch(() => "unknown");
  const result = report({
    config,
    database: database.label,
    commit: commit.trim(),
    loadAverage: (await import("node:os")).loadavg(),
    workloads,
    samples,
    idle,
    idleProbe,
    atEnd,
    drained: { queue: drained, ms: drainMs },
    streamAtStart,
    inboxActivities: { actors: remotes.actors.length, likeable: likeable.length },
    startEnv,
  });
  process.stdout.write(result.markdown);
  const resultsDir = join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, opts.postgresUrl ? "soak-postgres.json" : "soak.json");
  writeFileSync(file, `${JSON.stringify(result.json, null, 2)}\n`);
  log(`wrote ${file}`);
  streamClients?.process.stdin?.write("CLOSE\n");
}

let cleaning: Promise<void> | undefined;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const c of children) await stopChild(c);
    killAllChildren();
    for (const r of remotes?.remotes ?? []) await r.close().catch(() => {});
    await harnessCtx?.close().catch(() => {});
    await benchDb?.close().catch((e) => log(`could not drop the benchmark database: ${e}`));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  })();
  return cleaning;
}

process.once("exit", killAllChildren);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the children and removing the data`);
    void cleanUp().finally(() => process.exit(130));
  });
}
try {
  await main();
} catch (e) {
  process.stderr.write(`bench soak: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
// The fake remotes' keep-alive sockets and the harness's context must not keep the process up.
process.exit();
