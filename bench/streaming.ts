// `npm run bench:streaming` (also run by `npm run bench`): 10,000 WebSocket clients subscribed to
// `public:local` on one server process, held by a client process of their own (10,000 sockets
// need file descriptors: both children start with the soft limit raised to the hard one), then
// one post at a time. Figures: the server's resident memory with every client connected (and
// after the posts), and for each post the time from sending POST /api/v1/statuses until each
// client has the `update` (p50, p99 and the last client). The clients are distinct users (tokens
// taken in turn), as on a real server; BENCH_STREAM_CLIENT_PROCESSES (2) client processes share them. On SQLite by default (the in-process bus), or PostgreSQL
// (--postgres[=URL]). Prints a Markdown table and writes bench/results/streaming[-postgres].json.
//   BENCH_STREAM_CLIENTS=10000  BENCH_STREAM_USERS=10000  BENCH_STREAM_POSTS=5
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
import { send, waitUntilAnswering } from "./lib/http.ts";
import { parseOptions, wholeNumber } from "./lib/options.ts";
import { memory } from "./lib/proc.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const START = startCommand();
const SERVER_ARGS = START.serverArgs;
const BUILD_COMMANDS = START.buildCommands;
const RSS_GOAL_MIB = 250;
const P99_GOAL_MS = 300;

const num = (name: string, fallback: number) => wholeNumber(process.env, name, fallback);
const CLIENTS = num("BENCH_STREAM_CLIENTS", 10_000);
const USERS = num("BENCH_STREAM_USERS", 10_000);
const POSTS = num("BENCH_STREAM_POSTS", 5);
/** Client processes sharing the clients: one event loop reading 10,000 sockets would time itself. */
const CLIENT_PROCESSES = num("BENCH_STREAM_CLIENT_PROCESSES", 2);

const children: Child[] = [];
let dataDir: string | undefined;
let benchDb: BenchDatabase | undefined;

function log(msg: string): void {
  process.stderr.write(`bench streaming: ${msg}\n`);
}

/** `node args...` with the file descriptor limit raised to the hard limit first. */
function withFds(args: string[]): [string, string[]] {
  const quoted = [NODE, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return ["sh", ["-c", `ulimit -n "$(ulimit -Hn)" && exec ${quoted}`]];
}

/** Resolves with the next line of `child`'s stdout that starts with `prefix`. */
function nextLine(child: Child, prefix: string, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => {
      child.process.stdout?.off("data", onData);
      reject(new Error(`no ${prefix} within ${limitMs} ms:\n${child.output()}`));
    }, limitMs);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const line = buffer.split("\n").find((l) => l.startsWith(prefix));
      if (line === undefined) return;
      clearTimeout(timer);
      child.process.stdout?.off("data", onData);
      resolve(line.slice(prefix.length).trim());
    };
    child.process.stdout?.on("data", onData);
  });
}

async function main(): Promise<void> {
  const opts = parseOptions(
    process.argv.slice(2).filter((a) => a !== "--quick"),
    process.env,
  );
  const dir = mkdtempSync(join(tmpdir(), "gannet-bench-streaming-"));
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
    LOG_LEVEL: "warning",
    BIND: "127.0.0.1",
  };
  log(`setting up ${dir} on ${database.label}: a poster and ${USERS} readers`);
  for (const args of BUILD_COMMANDS) await runChild(NODE, args, { env }, 120_000);
  const tokensFile = join(dir, "tokens.txt");
  const seeded = await runChild(
    NODE,
    [join(BENCH_DIR, "lib/seed-streaming-users.ts")],
    { env: { ...env, USERS: String(USERS), TOKENS_FILE: tokensFile } },
    600_000,
  );
  const posterToken = /^POSTER_TOKEN=(\S+)$/m.exec(seeded)?.[1];
  if (!posterToken) throw new Error(`the seed printed no token:\n${seeded}`);

  const t0 = performance.now();
  const [sh, serverArgs] = withFds(SERVER_ARGS);
  const server = startChild(sh, serverArgs, { env });
  children.push(server);
  await waitUntilAnswering(`${origin}/health`, server, t0);
  // The shell exec'd node, so the child's pid is the server's.
  const idle = memory(server.pid);
  log(`server up, ${idle.rss.toFixed(1)} MiB resident; connecting ${CLIENTS} clients`);

  const clientProcs: Child[] = [];
  const connectStart = performance.now();
  for (let p = 0; p < CLIENT_PROCESSES; p++) {
    const from = Math.floor((CLIENTS * p) / CLIENT_PROCESSES);
    const count = Math.floor((CLIENTS * (p + 1)) / CLIENT_PROCESSES) - from;
    const [csh, clientArgs] = withFds([join(BENCH_DIR, "lib/streaming-clients.ts")]);
    const c = startChild(csh, clientArgs, {
      env: {
        ...process.env,
        URL: origin.replace(/^http/, "ws"),
        CLIENTS: String(count),
        OFFSET: String(from),
        TOKENS_FILE: tokensFile,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(c);
    clientProcs.push(c);
  }
  await Promise.all(clientProcs.map((c) => nextLine(c, "READY", 600_000)));
  const connectMs = performance.now() - connectStart;
  await sleep(2000);
  const connected = memory(server.pid);
  log(`${CLIENTS} clients subscribed in ${(connectMs / 1000).toFixed(1)} s; server ${connected.rss.toFixed(1)} MiB`);

  const headers = { Authorization: `Bearer ${posterToken}` };
  const samples: {
    received: number;
    open: number;
    first: number;
    p50: number;
    p99: number;
    max: number;
    postMs: number;
  }[] = [];
  for (let i = 0; i <= POSTS; i++) {
    const sentAt = performance.timeOrigin + performance.now();
    const t = performance.now();
    const res = await send(`${origin}/api/v1/statuses`, "POST", headers, JSON.stringify({ status: `Streaming ${i}` }));
    const postMs = performance.now() - t;
    if (res.status !== 200) throw new Error(`POST /api/v1/statuses answered ${res.status}: ${res.body}`);
    const id = JSON.parse(res.body.toString("utf8")).id as string;
    const results = await Promise.all(
      clientProcs.map((c) => {
        const line = nextLine(c, "RESULT", 90_000);
        c.process.stdin?.write(`WAIT ${id} ${sentAt}\n`);
        return line.then((l) => JSON.parse(l) as { open: number; times: number[] });
      }),
    );
    const times = results.flatMap((x) => x.times).sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] as number;
    const r = {
      received: times.length,
      open: results.reduce((n, x) => n + x.open, 0),
      first: times[0] as number,
      p50: pct(50),
      p99: pct(99),
      max: times.at(-1) as number,
      postMs,
    };
    const line = `${r.received}/${CLIENTS} received, first ${r.first?.toFixed(0)} ms, p50 ${r.p50?.toFixed(0)} ms, p99 ${r.p99?.toFixed(0)} ms, last ${r.max?.toFixed(0)} ms`;
    if (i === 0) log(`warm-up post: ${line}`);
    else {
      samples.push(r);
      log(`post ${i}: ${line}`);
    }
    await sleep(1000);
  }
  const after = memory(server.pid);
  for (const c of clientProcs) c.process.stdin?.write("CLOSE\n");

  const byP99 = [...samples].sort((a, b) => a.p99 - b.p99);
  const mid = byP99[Math.floor(byP99.length / 2)];
  const worst = byP99.at(-1);
  const allReceived = samples.every((s) => s.received === CLIENTS);
  const report = {
    database: database.label,
    date: new Date().toISOString(),
    clients: CLIENTS,
    clientProcesses: CLIENT_PROCESSES,
    users: USERS,
    connectMs,
    memoryMiB: { idle, connected, afterPosts: after },
    samples,
    target: {
      rss: { goalMiB: RSS_GOAL_MIB, pass: Math.max(connected.rss, after.rss) <= RSS_GOAL_MIB },
      p99: { goalMs: P99_GOAL_MS, pass: allReceived && (mid?.p99 ?? Infinity) <= P99_GOAL_MS },
    },
  };
  const ms = (v: number | undefined) => (v === undefined ? "-" : `${v.toFixed(0)} ms`);
  const ok = (b: boolean) => (b ? "✔" : "✘");
  const peakRss = Math.max(connected.rss, after.rss);
  process.stdout.write(
    [
      "",
      `| streaming (${database.label}), ${CLIENTS} WebSocket clients on \`public:local\` | figure | goal | |`,
      "|---|---|---|---|",
      `| server resident memory: idle / ${CLIENTS} clients / after ${POSTS + 1} posts | ${idle.rss.toFixed(1)} / ${connected.rss.toFixed(1)} / ${after.rss.toFixed(1)} MiB | ≤ ${RSS_GOAL_MIB} MiB | ${ok(peakRss <= RSS_GOAL_MIB)} |`,
      `| delivery p99, median of ${POSTS} posts (p50; the last client) | ${ms(mid?.p99)} (${ms(mid?.p50)}; ${ms(mid?.max)}) | ≤ ${P99_GOAL_MS} ms | ${ok(report.target.p99.pass)} |`,
      `| the slowest post's p99 (the last client) | ${ms(worst?.p99)} (${ms(worst?.max)}) | | |`,
      `| the first client, median post (the answer to the POST) | ${ms(mid?.first)} (${ms(mid?.postMs)}) | | |`,
      `| every client had every post | ${samples.map((s) => s.received).join(", ")} of ${CLIENTS} | all | ${ok(allReceived)} |`,
      `| connecting and subscribing ${CLIENTS} clients (${CLIENT_PROCESSES} client processes, 100 at a time each) | ${(connectMs / 1000).toFixed(1)} s | | |`,
      "",
    ].join("\n"),
  );
  const resultsDir = join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, opts.postgresUrl ? "streaming-postgres.json" : "streaming.json");
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
  process.stderr.write(`bench streaming: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
