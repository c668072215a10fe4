// The soak's figures beside its targets (bench/soak.ts): a Markdown table for the terminal and
// the same as JSON for bench/results/soak.json.
import type { Memory } from "./proc.ts";
import { errorKinds, summarize, type Workload } from "./soak-load.ts";
import type { Probe } from "./soak-probe.ts";

export const RSS_GOAL_MIB = 200;
/** The last window's p99 may exceed the first's by at most this fraction. */
export const P99_DRIFT = 0.2;

export interface SoakConfig {
  minutes: number;
  readRate: number;
  postRate: number;
  inboxRate: number;
  streamClients: number;
  readers: number;
  authors: number;
  remoteServers: number;
  actorsEach: number;
  seed: Record<string, string>;
}

export interface QueueDepth {
  backlog: number;
  delayed: number;
  dead: number;
  byName: Record<string, number>;
}

export interface StreamCounts {
  open: number;
  events: { user: number; public: number };
  disconnects: number;
  errors: number;
  refused: number;
  reconnections: number;
}

export interface MinuteSample {
  minute: number;
  rssMiB: number;
  /** The server's own account of its memory (soak-probe-preload.ts), a few seconds old. */
  probe?: Probe;
  cpuPercent: number;
  mainThreadCpuPercent: number;
  queue: QueueDepth;
  inFlight: number;
  stream?: StreamCounts;
  /** The event loop's stalls over 200 ms noted this minute (soak-probe-preload.ts). */
  stalls?: Stall[];
}

/** One stall of the server's event loop, with what overlapped it (soak-probe-preload.ts). */
export interface Stall {
  at: number;
  uptimeMs: number;
  lateMs: number;
  heapBefore: number;
  heapAfter: number;
  running: string[];
  ended: string[];
  gc: string[];
}

export interface SoakRun {
  config: SoakConfig;
  database: string;
  commit: string;
  loadAverage: number[];
  workloads: Workload[];
  samples: MinuteSample[];
  idle: Memory;
  /** The server's probe before the load (soak-probe-preload.ts). */
  idleProbe?: Probe;
  atEnd: { memory: Memory; queue: QueueDepth; stream?: StreamCounts };
  drained: { queue: QueueDepth; ms: number };
  streamAtStart?: StreamCounts;
  inboxActivities: { actors: number; likeable: number };
  /** What the start script exported into the server's environment (malloc's settings). */
  startEnv: Record<string, string>;
}

/** The longest stalls of the event loop, with what overlapped each: a task, a job, a GC. */
function stallsTable(samples: MinuteSample[]): string[] {
  const all = samples.flatMap((s) => (s.stalls ?? []).map((x) => ({ minute: s.minute, ...x })));
  if (all.length === 0) return ["No stall of the server's event loop over 200 ms."];
  const top = [...all].sort((a, b) => b.lateMs - a.lateMs).slice(0, 10);
  const list = (xs: string[]) => (xs.length > 0 ? xs.join(", ") : "-");
  return [
    `Stalls of the server's event loop over 200 ms: ${all.length}, the longest ${top[0]?.lateMs} ms. The ten longest, with the periodic tasks and jobs running at its end or ending within it, and the garbage collections within it:`,
    "",
    "| minute | stall | heap used before → after (MiB) | running | ended within | GC |",
    "|---|---|---|---|---|---|",
    ...top.map(
      (x) =>
        `| ${x.minute} | ${x.lateMs} ms | ${x.heapBefore} → ${x.heapAfter} | ${list(x.running)} | ${list(x.ended)} | ${list(x.gc)} |`,
    ),
  ];
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : "-");
const ok = (b: boolean) => (b ? "✔" : "✘");

/**
 * Where the resident memory is, before the load and each minute (the server's own figures, a few
 * seconds old): V8's heap, memory outside it held by Buffers and other external objects, the rest
 * of the anonymous memory (malloc: SQLite, native modules, V8's compiler, the allocator's free
 * lists; thread stacks), and mapped files (the node binary's code).
 */
function memoryTable(run: SoakRun): string[] {
  const rows = [...run.samples.map((s) => [String(s.minute), s.probe] as const)];
  if (run.idleProbe) rows.unshift(["before", run.idleProbe]);
  if (rows.every(([, p]) => p === undefined)) return [];
  const f = (x: number) => x.toFixed(1);
  return [
    "| minute | RSS | V8 heap used / reserved (new space) | external (array buffers) | other anonymous (malloc, stacks) | mapped files | threads |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(([m, p]) =>
      p === undefined
        ? `| ${m} | - | - | - | - | - | - |`
        : `| ${m} | ${f(p.rss)} | ${f(p.heapUsed)} / ${f(p.heapTotal)} (${f(p.spaces.new?.size ?? 0)}) | ${f(p.external)} (${f(p.arrayBuffers)}) | ${f(p.anon - p.heapTotal - p.external)} | ${f(p.fileBacked)} | ${p.threads} |`,
    ),
  ];
}

/** Every error answer and failed request: by kind, workload and minute (none hidden). */
function errorList(workloads: Workload[]): string[] {
  const rows: string[] = [];
  for (const w of workloads) {
    const byKind = new Map<string, string[]>();
    w.minutes.forEach((m, i) => {
      for (const [kind, count] of Object.entries(m.errors)) {
        const list = byKind.get(kind) ?? [];
        list.push(`${count} in minute ${i + 1}`);
        byKind.set(kind, list);
      }
    });
    for (const [kind, list] of byKind) rows.push(`| ${w.name} | ${kind} | ${list.join(", ")} |`);
  }
  if (rows.length === 0) return ["Every HTTP request was answered 2xx.", ""];
  return [
    "Every error (a status other than 2xx, or a socket error or timeout without an answer):",
    "",
    "| workload | answer | when (minute of its due time) |",
    "|---|---|---|",
    ...rows,
    "",
  ];
}

export function report(run: SoakRun): { markdown: string; json: unknown } {
  const { config, workloads, samples } = run;
  const n = config.minutes;
  const win = Math.max(1, Math.round(n / 6));
  const rows: string[] = [];
  const stability: Record<string, { first: number; last: number; ratio: number; pass: boolean }> = {};
  const stable = (name: string, ws: Workload[]) => {
    const first = summarize(ws, 0, win).p99;
    const last = summarize(ws, n - win, n).p99;
    const ratio = last / first;
    const pass = ratio <= 1 + P99_DRIFT;
    stability[name] = { first, last, ratio, pass };
    return `| p99 stable, ${name}: minutes ${n - win + 1}-${n} vs 1-${win} | ${ms(last)} vs ${ms(first)} (${((ratio - 1) * 100).toFixed(0)}%) | ≤ +${P99_DRIFT * 100}% | ${ok(pass)} |`;
  };
  const stream = run.atEnd.stream;
  const streamErrors = stream ? stream.disconnects + stream.errors + stream.refused : 0;
  const errorsOf = Object.fromEntries(workloads.map((w) => [w.name, errorKinds(w)]));
  // Every request recorded counts, those due after the last minute's sample included.
  const all = (w: Workload) => summarize([w], 0, Math.max(n, w.minutes.length));
  const totalErrors = workloads.reduce((t, w) => t + all(w).errors, 0);
  const totalRequests = workloads.reduce((t, w) => t + all(w).count, 0);
  const rss = run.atEnd.memory.rss;
  const isSqlite = run.database.startsWith("SQLite");
  const queueOk = run.drained.queue.backlog === 0;

  rows.push(
    "",
    `## Soak: ${n} minutes, mixed open-loop load (${run.database}, commit ${run.commit}, load average ${run.loadAverage.map((x) => x.toFixed(2)).join(" ")})`,
    "",
    `Reading ${config.readRate}/s (five workloads, ${config.readers} readers), posting ${config.postRate}/s (${config.authors} authors), ` +
      `inbox ${config.inboxRate}/s (Create:Like 3:1 from ${run.inboxActivities.actors} actors on ${config.remoteServers} fake servers), ` +
      `${config.streamClients} streaming clients (user and public). Seed: ${Object.entries(config.seed)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}. ` +
      `Server environment from the start script: ${
        Object.entries(run.startEnv)
          .map(([k, v]) => `${k}=${v}`)
          .join(" ") || "none"
      }.`,
    "",
    "| target | figure | goal | |",
    "|---|---|---|---|",
    `| resident memory at the end${isSqlite ? "" : " (the goal is SQLite's)"} (idle before the load; peak) | ${rss.toFixed(1)} MiB (${run.idle.rss.toFixed(1)}; ${run.atEnd.memory.peak.toFixed(1)}) | ≤ ${RSS_GOAL_MIB} MiB | ${ok(rss <= RSS_GOAL_MIB)} |`,
    `| error answers (non-2xx, socket errors, timeouts), all HTTP workloads | ${totalErrors} of ${totalRequests} | 0 | ${ok(totalErrors === 0)} |`,
    `| streaming: disconnects / socket errors / refused | ${stream ? `${stream.disconnects} / ${stream.errors} / ${stream.refused}` : "-"} | 0 | ${ok(streamErrors === 0)} |`,
    stable("all HTTP workloads", workloads),
    ...workloads.map((w) => stable(w.name, [w])),
    `| job backlog (due or running) at the end; after the load stopped | ${run.atEnd.queue.backlog}; ${run.drained.queue.backlog} after ${(run.drained.ms / 1000).toFixed(1)} s | drains | ${ok(queueOk)} |`,
    "",
    "| workload | rate/s | requests | p50 | p99 | max | errors |",
    "|---|---|---|---|---|---|---|",
    ...workloads.map((w) => {
      const s = all(w);
      const kinds = Object.entries(errorsOf[w.name] ?? {})
        .map(([k, c]) => `${c} × ${k}`)
        .join(", ");
      return `| ${w.name} | ${w.rate} | ${s.count} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.max)} | ${kinds || 0} |`;
    }),
    "",
    ...errorList(workloads),
    "| minute | RSS | server CPU (main thread), % of a core | requests | p99 (all HTTP) | errors | job backlog / delayed / dead | stream events (user, public) |",
    "|---|---|---|---|---|---|---|---|",
  );
  let prevEvents = run.streamAtStart?.events ?? { user: 0, public: 0 };
  for (const s of samples) {
    const m = summarize(workloads, s.minute - 1, s.minute);
    const ev = s.stream?.events;
    const evText = ev ? `${ev.user - prevEvents.user}, ${ev.public - prevEvents.public}` : "-";
    if (ev) prevEvents = ev;
    rows.push(
      `| ${s.minute} | ${s.rssMiB.toFixed(1)} MiB | ${s.cpuPercent.toFixed(0)} (${s.mainThreadCpuPercent.toFixed(0)}) | ${m.count} | ${ms(m.p99)} | ${m.errors} | ${s.queue.backlog} / ${s.queue.delayed} / ${s.queue.dead} | ${evText} |`,
    );
  }
  rows.push("", ...memoryTable(run), "", ...stallsTable(samples), "");
  const json = {
    date: new Date().toISOString(),
    database: run.database,
    commit: run.commit,
    loadAverage: run.loadAverage,
    node: process.version,
    config,
    startEnv: run.startEnv,
    memoryMiB: { idle: run.idle, atEnd: run.atEnd.memory, probeBeforeLoad: run.idleProbe },
    errors: errorsOf,
    stream: { atStart: run.streamAtStart, atEnd: stream },
    stabilityWindowMinutes: win,
    stability,
    queue: { atEnd: run.atEnd.queue, afterLoad: run.drained.queue, drainMs: run.drained.ms },
    workloads: workloads.map((w) => ({
      name: w.name,
      rate: w.rate,
      total: summarize([w], 0, n),
      perMinute: w.minutes.map((_, i) => summarize([w], i, i + 1)),
    })),
    minutes: samples,
    targets: {
      rss: { goalMiB: RSS_GOAL_MIB, pass: rss <= RSS_GOAL_MIB },
      errors: { pass: totalErrors === 0 && streamErrors === 0 },
      p99Stable: { pass: Object.values(stability).every((x) => x.pass) },
      queueDrains: { pass: queueOk },
    },
  };
  return { markdown: rows.join("\n"), json };
}
