// `npm run bench -- --postgres --split`: the home timeline and posting on one Gannet process, then
// on Gannet split over processes (docs/scaling.md): two `web` processes, a `worker`, a `streaming`
// and a `scheduler`, behind a small round-robin front (bench/lib/front.ts) on the port the
// one-process server had. Same seed, same database server, one after the other: the one-process
// server is measured and stopped, then the split is started and measured. Both use Redis (job
// queue, event bus, rate-limit counters; a namespace of their own each, removed at the end), so
// the split is the only difference. CPU per request is summed over every process of the side
// measured, the front included. Called by bench/run.ts once the data is seeded.
//   BENCH_REDIS_URL=redis://127.0.0.1:6379   the Redis server
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { type Child, freePort, NODE, REPO_ROOT, startChild, startCommand, stopChild } from "./lib/children.ts";
import type { BenchDatabase } from "./lib/database.ts";
import { measureFanOut } from "./lib/fan-out.ts";
import { get, waitUntilAnswering } from "./lib/http.ts";
import { type MeasuredRun, medianRun, runLoad } from "./lib/load.ts";
import type { Options } from "./lib/options.ts";
import { clockTicksPerSecond, cpuTicks, memory } from "./lib/proc.ts";
import { median, mib } from "./lib/report.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const FRONT = join(BENCH_DIR, "lib/front.ts");

export interface SplitArgs {
  opts: Options;
  /** The environment the seed and the one-process server use (DATABASE_URL, PORT, ...). */
  env: NodeJS.ProcessEnv;
  database: BenchDatabase;
  seeded: { readerToken: string; authorToken: string; authorId: string; counts: string };
  port: number;
  log: (msg: string) => void;
}

interface Proc {
  name: string;
  child: Child;
}

interface Side {
  label: string;
  home: MeasuredRun;
  post: MeasuredRun;
  /** Each process's share of the CPU time over each workload (all runs, warm-up included). */
  shares: Record<string, Record<string, number>>;
  fanOut: { postMs: number; delayMs: number }[];
  /** From the posting load's end until a post made then was in every follower's feed. */
  drainMs: number;
  rss: Record<string, number>;
}

const HOME = "GET /api/v1/timelines/home?limit=40";
const POST = "POST /api/v1/statuses";

export async function runSplit(args: SplitArgs): Promise<void> {
  const { log } = args;
  const redisUrl = process.env.BENCH_REDIS_URL || "redis://127.0.0.1:6379";
  const namespace = `gannet_bench_${process.pid}_${Date.now()}`;
  const origin = `http://127.0.0.1:${args.port}`;
  const server = startCommand().serverArgs;
  // One domain for every process: the one the seed made its accounts under.
  const env = {
    ...args.env,
    LOCAL_DOMAIN: `localhost:${args.port}`,
    REDIS_URL: redisUrl,
  };
  const running: Proc[] = [];
  const start = async (name: string, extra: NodeJS.ProcessEnv, probe?: string) => {
    const t0 = performance.now();
    const child = startChild(NODE, server, { env: { ...env, ...extra } });
    running.push({ name, child });
    if (probe) await waitUntilAnswering(`${probe}/health`, child, t0, { limitMs: 60_000 });
    return child;
  };
  const stopAll = async () => {
    await Promise.all(running.map((p) => stopChild(p.child)));
    running.length = 0;
  };
  const sides: Side[] = [];
  const loadBefore = loadavg()[0];
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    log(`split: one process (GANNET_ROLE=all) on ${origin}, Redis namespace ${namespace}_one`);
    await start("all", { REDIS_NAMESPACE: `${namespace}_one`, PORT: String(args.port) }, origin);
    sides.push(await measureSide("one process", running, origin, args));
    await stopAll();

    const [a, b, s, w, sc] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const ns = { REDIS_NAMESPACE: `${namespace}_split` };
    log(`split: web :${a} and :${b}, streaming :${s}, worker, scheduler; the front on :${args.port}`);
    await Promise.all([
      start("web A", { ...ns, PORT: String(a), GANNET_ROLE: "web" }, `http://127.0.0.1:${a}`),
      start("web B", { ...ns, PORT: String(b), GANNET_ROLE: "web" }, `http://127.0.0.1:${b}`),
      start("streaming", { ...ns, PORT: String(s), GANNET_ROLE: "streaming" }, `http://127.0.0.1:${s}`),
      // Ports of their own, though they do not listen.
      start("worker", { ...ns, PORT: String(w), GANNET_ROLE: "worker" }),
      start("scheduler", { ...ns, PORT: String(sc), GANNET_ROLE: "scheduler" }),
    ]);
    const t0 = performance.now();
    const front = startChild(NODE, [FRONT, String(args.port), `${a},${b}`, String(s)]);
    running.push({ name: "front", child: front });
    await waitUntilAnswering(`${origin}/health`, front, t0);
    const streamingHealth = await get(`${origin}/api/v1/streaming/health`);
    if (streamingHealth.status !== 200)
      throw new Error(`the front's streaming path answered ${streamingHealth.status}`);
    sides.push(await measureSide("split (2 web, worker, streaming, scheduler, front)", running, origin, args));
    await stopAll();
  } finally {
    await stopAll();
    await removeNamespace(redis, namespace).catch((e) => log(`could not clear Redis ${namespace}*: ${e}`));
    redis.disconnect();
  }
  const git = (a: string[]) => execFileSync("git", a, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  const meta = {
    node: execFileSync(NODE, ["--version"], { encoding: "utf8" }).trim(),
    commit:
      git(["rev-parse", "--short", "HEAD"]) + (git(["status", "--porcelain", "--untracked-files=no"]) ? "+dirty" : ""),
    database: args.database.label,
    "load average (1 min) before, after": `${loadBefore.toFixed(1)}, ${loadavg()[0].toFixed(1)}`,
    date: new Date().toISOString(),
  };
  process.stdout.write(`\n${render(sides, args, meta)}\n`);
  mkdirSync(join(BENCH_DIR, "results"), { recursive: true });
  const file = join(BENCH_DIR, "results", "latest-split.json");
  writeFileSync(file, `${JSON.stringify({ meta, seed: args.seeded.counts, sides }, null, 2)}\n`);
  log(`wrote ${file}`);
}

async function measureSide(label: string, procs: Proc[], origin: string, args: SplitArgs): Promise<Side> {
  const { opts, log, seeded } = args;
  const pids = procs.map((p) => p.child.pid);
  const ticks = clockTicksPerSecond();
  const shares: Side["shares"] = {};
  const load = async (name: string, job: Parameters<typeof runLoad>[0]) => {
    const before = pids.map(cpuTicks);
    const runs = await runLoad(job, pids, ticks);
    const spent = pids.map((pid, i) => cpuTicks(pid) - before[i]);
    const total = spent.reduce((x, y) => x + y, 0) || 1;
    shares[name] = Object.fromEntries(procs.map((p, i) => [p.name, spent[i] / total]));
    const m = medianRun(runs);
    log(
      `  ${label}: ${name}: ${Math.round(m.okRps)} 2xx req/s, p99 ${m.p99Ms.toFixed(2)} ms, ${m.cpuUsPerRequest.toFixed(1)} µs CPU/req`,
    );
    for (const p of procs) {
      const ended = p.child.process.exitCode ?? p.child.process.signalCode;
      if (ended !== null) throw new Error(`${p.name} exited during the load (${ended}):\n${p.child.output()}`);
    }
    return m;
  };
  const reader = { Authorization: `Bearer ${seeded.readerToken}` };
  const author = { Authorization: `Bearer ${seeded.authorToken}` };
  const probe = await get(`${origin}/api/v1/timelines/home?limit=40`, reader);
  if (probe.status !== 200) throw new Error(`${label}: the home timeline answered ${probe.status}`);
  const common = {
    connections: opts.connections,
    warmupSeconds: opts.warmupSeconds,
    durationSeconds: opts.durationSeconds,
    runs: opts.runs,
  };
  const home = await load(HOME, { ...common, url: `${origin}/api/v1/timelines/home?limit=40`, headers: reader });

  const me = await get(`${origin}/api/v1/accounts/verify_credentials`, author);
  const followers = Number(JSON.parse(me.body.toString("utf8")).followers_count);
  const fanOut = await measureFanOut({
    ...fanOutArgs(origin, args, followers),
    samples: opts.fanOutSamples,
    limitMs: 30_000,
  });
  log(
    `  ${label}: fan-out to ${followers} followers: in all feeds after ${fanOut.map((x) => x.delayMs.toFixed(0)).join(", ")} ms`,
  );
  const post = await load(POST, {
    ...common,
    url: `${origin}/api/v1/statuses`,
    headers: { ...author, "Content-Type": "application/json" },
    method: "POST",
    body: JSON.stringify({ status: "Benchmark post #bench", visibility: "public" }),
    rate: opts.postRate,
  });
  // The queue lives in Redis: a post made now is in every feed once the load's fan-outs are done.
  log(`  ${label}: waiting for the posting load's fan-outs`);
  const [drain] = await measureFanOut({ ...fanOutArgs(origin, args, followers), samples: 1, limitMs: 300_000 });
  log(`  ${label}: done ${(drain.delayMs / 1000).toFixed(1)} s after the load`);
  const rss = Object.fromEntries(procs.map((p) => [p.name, memory(p.child.pid).rss]));
  return { label, home, post, shares, fanOut, drainMs: drain.delayMs, rss };
}

function fanOutArgs(origin: string, args: SplitArgs, followers: number) {
  return { origin, token: args.seeded.authorToken, authorId: args.seeded.authorId, followers, db: args.database };
}

async function removeNamespace(redis: Redis, namespace: string): Promise<void> {
  await redis.connect();
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${namespace}_*`, "COUNT", 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== "0");
}

function render(sides: Side[], args: SplitArgs, meta: Record<string, string>): string {
  const { opts } = args;
  const cell = (m: MeasuredRun) =>
    `${Math.round(m.okRps)} | ${m.cpuUsPerRequest.toFixed(0)} µs | ${m.p99Ms.toFixed(1)} ms`;
  const [one, split] = sides;
  const ratio = (pick: (s: Side) => MeasuredRun) =>
    `${(pick(split).okRps / pick(one).okRps).toFixed(2)}× req/s, ${(pick(split).cpuUsPerRequest / pick(one).cpuUsPerRequest).toFixed(2)}× CPU`;
  const lines = [
    "## One process and the split (`npm run bench -- --postgres --split`)",
    "",
    Object.entries(meta)
      .map(([k, v]) => `${k} ${v}`)
      .join(", "),
    `Seed: ${args.seeded.counts}. ${opts.connections} connections, ${opts.warmupSeconds} s warm-up, ` +
      `${opts.runs} × ${opts.durationSeconds} s (median); posting open loop at ${opts.postRate}/s.`,
    "",
    "| workload | one process: 2xx req/s | CPU/req | p99 | split: 2xx req/s | CPU/req | p99 | split ÷ one |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
    `| ${HOME} | ${cell(one.home)} | ${cell(split.home)} | ${ratio((s) => s.home)} |`,
    `| ${POST} | ${cell(one.post)} | ${cell(split.post)} | ${ratio((s) => s.post)} |`,
    "",
    "Targets (one process, PostgreSQL; benchmarks guide): home ≥ 3,000 req/s; posting API p99 ≤ 30 ms.",
    "CPU/req is utime+stime summed over every process of the side (the split's front included) ÷ answered requests;",
    "posting's includes the fan-out jobs run meanwhile (by the worker process in the split).",
    "",
  ];
  for (const s of sides) {
    const fan = s.fanOut.map((x) => x.delayMs.toFixed(0)).join(", ");
    lines.push(
      `- ${s.label}: fan-out delay ${fan} ms (median ${median(s.fanOut.map((x) => x.delayMs)).toFixed(0)} ms); ` +
        `fan-outs of the posting load done ${(s.drainMs / 1000).toFixed(1)} s after it; resident ` +
        Object.entries(s.rss)
          .map(([k, v]) => `${k} ${mib(v)}`)
          .join(", "),
    );
    if (sides.indexOf(s) === 1) {
      for (const [w, share] of Object.entries(s.shares)) {
        const parts = Object.entries(share).map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`);
        lines.push(`  - CPU by process, ${w}: ${parts.join(", ")}`);
      }
    }
  }
  return lines.join("\n");
}
