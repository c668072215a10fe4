// `npm run bench`: start-up time, memory and HTTP throughput of one Gannet process on SQLite,
// against a bare `node:http` baseline. See docs in /work/shared/guide/benchmarks.md for the method.
//   --quick                 a short smoke run (1 s warm-up, one 3 s run per workload)
//   BENCH_DURATION=10       seconds per measured run       BENCH_WARMUP=3   warm-up seconds
//   BENCH_CONNECTIONS=50    concurrent connections         BENCH_RUNS=3     runs per workload (median)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Child,
  freePort,
  killAllChildren,
  NODE,
  REPO_ROOT,
  runChild,
  sleep,
  startChild,
  stopChild,
} from "./lib/children.ts";
import { get, waitUntilAnswering } from "./lib/http.ts";
import { type LoadJob, median, medianRun, runLoad } from "./lib/load.ts";
import { clockTicksPerSecond, memory } from "./lib/proc.ts";
import { mib, type Report, renderMarkdown, type TargetResult, type WorkloadResult } from "./lib/report.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const STARTS = 3;
const IDLE_MS = 2000;
const BARE = "bare node:http (same body)";
/** The temporary data directory, removed however the harness ends. */
let dataDir: string | undefined;

interface Options {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  runs: number;
}

function options(argv: string[], env: NodeJS.ProcessEnv): Options {
  const unknown = argv.filter((a) => a !== "--quick");
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown[0]} (only --quick is understood)`);
  const quick = argv.includes("--quick");
  const num = (name: string, fallback: number, min: number) => {
    const v = env[name];
    if (v === undefined || v === "") return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${v}"`);
    return n;
  };
  return {
    connections: num("BENCH_CONNECTIONS", 50, 1),
    warmupSeconds: num("BENCH_WARMUP", quick ? 1 : 3, 0),
    durationSeconds: num("BENCH_DURATION", quick ? 3 : 10, 1),
    runs: num("BENCH_RUNS", quick ? 1 : 3, 1),
  };
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** A deterministic JSON body of about 2 KB, used when `/api/v1/instance` does not answer 200. */
function standInBody(): Buffer {
  const rules = Array.from({ length: 12 }, (_, i) => ({ id: String(i + 1), text: `Rule number ${i + 1}: be kind.` }));
  const body = { domain: "bench.example", title: "Gannet", version: "4.3.0", description: "x".repeat(1200), rules };
  return Buffer.from(JSON.stringify(body));
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2), process.env);
  const ticks = clockTicksPerSecond();
  const dir = mkdtempSync(join(tmpdir(), "gannet-bench-"));
  dataDir = dir;
  const notes: string[] = [];
  let server: Child | undefined;
  let bare: Child | undefined;
  try {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // Explicit empty values keep a developer's .env from switching the database or adding Redis.
    const env = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dir,
      DATABASE_URL: "",
      REDIS_URL: "",
      RATE_LIMITS: "off",
      LOG_LEVEL: "warning",
      BIND: "127.0.0.1",
    };

    log(`setting up ${dir}`);
    const setupOut = await runChild(NODE, [join(BENCH_DIR, "lib/setup-data.ts")], { env }, 120_000);
    const token = /^BENCH_TOKEN=(\S+)$/m.exec(setupOut)?.[1];
    if (!token) throw new Error(`setup printed no token:\n${setupOut}`);

    const startupMs: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      if (server) await stopChild(server);
      const t0 = performance.now();
      server = startChild(NODE, ["src/main.ts"], { env });
      startupMs.push(await waitUntilAnswering(`${origin}/health`, server, t0));
      log(`start-up ${i + 1}/${STARTS}: ${startupMs[i].toFixed(0)} ms`);
    }
    if (!server) throw new Error("server did not start");
    const serverPid = server.pid;
    await sleep(IDLE_MS);
    const memIdle = memory(serverPid);
    log(`resident memory after start-up: ${mib(memIdle.rss)}`);

    const auth = { Authorization: `Bearer ${token}` };
    const workloads: { name: string; path: string; headers: Record<string, string> }[] = [
      { name: "GET /api/v1/instance", path: "/api/v1/instance", headers: {} },
      { name: "GET /nodeinfo/2.0", path: "/nodeinfo/2.0", headers: {} },
      { name: "GET /api/v1/accounts/verify_credentials", path: "/api/v1/accounts/verify_credentials", headers: auth },
    ];
    const probes: Report["probes"] = [];
    let baseline = { body: standInBody(), contentType: "application/json; charset=utf-8" };
    for (const w of workloads) {
      const a = await get(origin + w.path, w.headers);
      probes.push({ path: w.path, status: a.status, contentType: a.contentType, bytes: a.body.length });
      log(`probe ${w.path}: ${a.status} ${a.contentType} ${a.body.length} B`);
      if (a.status !== 200) notes.push(`${w.path} answered ${a.status} when probed; its figures are not throughput.`);
      if (w.path === "/api/v1/instance" && a.status === 200) baseline = { body: a.body, contentType: a.contentType };
    }
    if (probes[0].status !== 200) {
      notes.push(`The bare server served a ${baseline.body.length}-byte JSON stand-in (/api/v1/instance was not 200).`);
    } else {
      notes.push(`The bare server served the ${baseline.body.length}-byte body of /api/v1/instance.`);
    }

    const barePort = await freePort();
    const bodyFile = join(dir, "baseline-body.json");
    writeFileSync(bodyFile, baseline.body);
    const bareArgs = [join(BENCH_DIR, "lib/baseline-server.ts"), String(barePort), bodyFile, baseline.contentType];
    const t0 = performance.now();
    bare = startChild(NODE, bareArgs, { env: { PATH: process.env.PATH ?? "" } });
    await waitUntilAnswering(`http://127.0.0.1:${barePort}/`, bare, t0);

    const targets: { name: string; url: string; headers: Record<string, string>; pid: number }[] = [
      ...workloads.map((w) => ({ name: w.name, url: origin + w.path, headers: w.headers, pid: serverPid })),
      { name: BARE, url: `http://127.0.0.1:${barePort}/`, headers: {}, pid: bare.pid },
    ];
    const results: WorkloadResult[] = [];
    for (const t of targets) {
      const job: LoadJob = { url: t.url, headers: t.headers, ...opts };
      log(`load: ${t.name} (${opts.warmupSeconds} s warm-up, ${opts.runs} × ${opts.durationSeconds} s)`);
      const runs = await runLoad(job, t.pid, ticks);
      const m = medianRun(runs);
      log(`  ${Math.round(m.okRps)} 2xx req/s, p99 ${m.p99Ms} ms, ${m.cpuUsPerRequest.toFixed(1)} µs CPU/req`);
      results.push({ name: t.name, median: m, runs });
    }

    const memAfter = memory(serverPid);
    await stopChild(bare);
    await stopChild(server);

    const vc = results.find((r) => r.name.includes("verify_credentials"))!.median;
    const bareRps = results.find((r) => r.name === BARE)!.median.okRps;
    const startupMedian = median(startupMs);
    const ratio = vc.okRps / bareRps;
    const targetList: TargetResult[] = [
      {
        what: "verify_credentials vs bare server (2xx req/s)",
        figure: `${(ratio * 100).toFixed(0)}% (${Math.round(vc.okRps)} / ${Math.round(bareRps)})`,
        goal: "≥ 50%",
        pass: ratio >= 0.5,
      },
      { what: "RSS after start-up (2 s idle)", figure: mib(memIdle.rss), goal: "< 120 MiB", pass: memIdle.rss < 120 },
      { what: "RSS after the benchmark", figure: mib(memAfter.rss), goal: "< 200 MiB", pass: memAfter.rss < 200 },
      {
        what: `start-up to first 200 on /health (median of ${STARTS})`,
        figure: `${startupMedian.toFixed(0)} ms`,
        goal: "< 1.5 s",
        pass: startupMedian < 1500,
      },
    ];
    notes.push(
      `Start-ups: ${startupMs.map((s) => `${s.toFixed(0)} ms`).join(", ")}.`,
      `Server RSS after start-up: ${mib(memIdle.anon)} anonymous + ${mib(memIdle.file)} file-backed; ` +
        `after the benchmark: ${mib(memAfter.anon)} + ${mib(memAfter.file)}, peak (VmHWM) ${mib(memAfter.peak)}.`,
      "Server CPU/request = utime+stime of the server process over a measured run ÷ all answered requests.",
    );

    const report: Report = {
      meta: {
        node: execFileSync(NODE, ["--version"], { encoding: "utf8" }).trim(),
        commit:
          git(["rev-parse", "--short", "HEAD"]) +
          (git(["status", "--porcelain", "--untracked-files=no"]) ? "+dirty" : ""),
        database: "SQLite (node:sqlite, WAL)",
        date: new Date().toISOString(),
        cpus: availableParallelism(),
        ...opts,
      },
      startup: { runsMs: startupMs, medianMs: startupMedian, probe: "/health" },
      memory: { afterStartup: memIdle, afterBenchmark: memAfter },
      probes,
      workloads: results,
      targets: targetList,
      notes,
    };
    process.stdout.write(`\n${renderMarkdown(report, BARE)}\n`);
    const resultsDir = join(BENCH_DIR, "results");
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${join(resultsDir, "latest.json")}`);
  } finally {
    if (bare) await stopChild(bare);
    if (server) await stopChild(server);
    removeDataDir();
  }
}

function removeDataDir(): void {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

function log(msg: string): void {
  process.stderr.write(`bench: ${msg}\n`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAllChildren();
    removeDataDir();
    process.stderr.write(`bench: interrupted by ${signal}\n`);
    process.exit(130);
  });
}
process.once("exit", killAllChildren);

try {
  await main();
} catch (e) {
  killAllChildren();
  process.stderr.write(`bench: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
}
