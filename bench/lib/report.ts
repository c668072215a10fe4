import type { FanOutSample } from "./fan-out.ts";
import type { MeasuredRun } from "./load.ts";
import type { Memory } from "./proc.ts";
import type { ScoringResult } from "./trends.ts";

export interface WorkloadResult {
  name: string;
  /** The bare workload serving a body of about the same size, for the ratio. */
  baseline?: string;
  /** Set for open-loop runs: requests per second asked for. */
  rate?: number;
  /** The workload's median figures (see `medianRun`) and every run. */
  median: MeasuredRun;
  runs: MeasuredRun[];
}

export interface TargetResult {
  what: string;
  figure: string;
  goal: string;
  pass: boolean;
}

export interface Report {
  meta: {
    node: string;
    commit: string;
    database: string;
    date: string;
    cpus: number;
    connections: number;
    warmupSeconds: number;
    durationSeconds: number;
    runs: number;
  };
  startup: { runsMs: number[]; medianMs: number; probe: string };
  memory: { afterStartup: Memory; afterBenchmark: Memory };
  probes: { path: string; status: number; contentType: string; bytes: number }[];
  seed?: { ms: number; counts: string };
  workloads: WorkloadResult[];
  fanOut?: { followers: number; samples: FanOutSample[]; drainAfterLoadMs?: number };
  targets: TargetResult[];
  /** The trends scoring job under a steady home timeline load (bench/lib/trends.ts). */
  scoring?: ScoringResult;
  notes: string[];
}

export const BARE = "bare node:http (same body)";
export const BARE_PAGE = "bare node:http (home timeline's body)";
export const HOME = "GET /api/v1/timelines/home?limit=40 (reader, follows 500)";
export const HOME_FILTERED = "GET /api/v1/timelines/home?limit=40 (reader with 20 filters × 5 keywords)";
export const RELATIONSHIPS = "GET /api/v1/accounts/relationships?id[]=…×40 (reader)";
export const FOLLOWERS = "GET /api/v1/accounts/:author/followers?limit=40 (reader)";
export const POST_STATUS = "POST /api/v1/statuses (author, 1,000 local followers)";
export const VERIFY_CREDENTIALS = "GET /api/v1/accounts/verify_credentials";

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The four targets of the brief, each with its figure. */
export function evaluateTargets(
  workloads: WorkloadResult[],
  startupMs: number[],
  memory: Report["memory"],
  fanOut?: Report["fanOut"],
): TargetResult[] {
  const find = (name: string) => {
    const w = workloads.find((x) => x.name === name);
    if (!w) throw new Error(`no results for ${name}`);
    return w.median;
  };
  const vc = workloads.find((x) => x.name === VERIFY_CREDENTIALS)?.median;
  const bare = find(BARE);
  const ratio = vc ? vc.okRps / bare.okRps : Number.NaN;
  const startup = median(startupMs);
  const idle = memory.afterStartup.rss;
  const after = memory.afterBenchmark.rss;
  const out: TargetResult[] = [
    {
      what: "verify_credentials vs bare server (2xx req/s)",
      figure: vc ? `${(ratio * 100).toFixed(0)}% (${int(vc.okRps)} / ${int(bare.okRps)})` : "not run",
      goal: "≥ 50%",
      pass: ratio >= 0.5,
    },
    { what: "RSS after start-up (2 s idle)", figure: mib(idle), goal: "< 120 MiB", pass: idle < 120 },
    { what: "RSS after the benchmark", figure: mib(after), goal: "< 200 MiB", pass: after < 200 },
    {
      what: `start-up to first 200 on /health (median of ${startupMs.length})`,
      figure: `${startup.toFixed(0)} ms`,
      goal: "< 1.5 s",
      pass: startup < 1500,
    },
  ];
  const home = workloads.find((w) => w.name === HOME)?.median;
  const page = workloads.find((w) => w.name === BARE_PAGE)?.median;
  if (home && page) {
    const r = home.okRps / page.okRps;
    out.push(
      {
        what: "home timeline vs bare server, same body (2xx req/s)",
        figure: `${(r * 100).toFixed(0)}% (${int(home.okRps)} / ${int(page.okRps)})`,
        goal: "≥ 25%",
        pass: r >= 0.25,
      },
      { what: "home timeline p99, 50 connections", figure: ms(home.p99Ms), goal: "< 50 ms", pass: home.p99Ms < 50 },
    );
  }
  const filtered = workloads.find((w) => w.name === HOME_FILTERED)?.median;
  if (home && filtered) {
    const r = filtered.okRps / home.okRps;
    const cpu = home.cpuUsPerRequest / filtered.cpuUsPerRequest;
    out.push({
      what: "home timeline with 20 filters × 5 keywords vs without (2xx req/s; by CPU/request in brackets)",
      figure:
        `${(r * 100).toFixed(0)}% (${int(filtered.okRps)} / ${int(home.okRps)}; ` +
        `${(cpu * 100).toFixed(0)}%: ${us(filtered.cpuUsPerRequest)} / ${us(home.cpuUsPerRequest)})`,
      goal: "≥ 70%",
      pass: r >= 0.7,
    });
  }
  const post = workloads.find((w) => w.name === POST_STATUS);
  if (post) {
    out.push({
      what: `posting a status p99 (open loop, ${post.rate ?? "?"} posts/s)`,
      figure: ms(post.median.p99Ms),
      goal: "< 30 ms",
      pass: post.median.p99Ms < 30 && post.median.non2xx === 0,
    });
  }
  if (fanOut && fanOut.samples.length > 0) {
    const delays = fanOut.samples.map((x) => x.delayMs);
    const worst = delays.some((d) => Number.isNaN(d)) ? Number.NaN : Math.max(...delays);
    out.push({
      what: `status in all ${fanOut.followers} followers' home feeds after the POST's answer (worst of ${delays.length})`,
      figure: `${ms(worst)} (median ${ms(median(delays))})`,
      goal: "< 2 s",
      pass: worst < 2000,
    });
  }
  return out;
}

/**
 * Issue 20's PostgreSQL targets (docs/performance.md, "PostgreSQL: caches under change notices"),
 * shown when the run is on PostgreSQL: the server CPU per request beside each, the steadier figure.
 */
export function postgresTargets(workloads: WorkloadResult[]): TargetResult[] {
  const get = (name: string) => workloads.find((w) => w.name === name)?.median;
  const out: TargetResult[] = [];
  const vc = get(VERIFY_CREDENTIALS);
  const bare = get(BARE);
  if (vc && bare) {
    const r = vc.okRps / bare.okRps;
    out.push({
      what: "PostgreSQL: verify_credentials vs bare server (2xx req/s; CPU/request in brackets)",
      figure: `${(r * 100).toFixed(0)}% (${int(vc.okRps)} / ${int(bare.okRps)}; ${us(vc.cpuUsPerRequest)} / ${us(bare.cpuUsPerRequest)})`,
      goal: "≥ 40%",
      pass: r >= 0.4,
    });
  }
  const home = get(HOME);
  if (home) {
    out.push({
      what: "PostgreSQL: home timeline (2xx req/s; CPU/request in brackets)",
      figure: `${int(home.okRps)} (${us(home.cpuUsPerRequest)})`,
      goal: "≥ 3,000",
      pass: home.okRps >= 3000,
    });
  }
  return out;
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : "n/a");
const us = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} µs` : "n/a");
export const mib = (n: number) => `${n.toFixed(1)} MiB`;

function statusList(statuses: Record<string, number>): string {
  const parts = Object.entries(statuses).map(([code, n]) => `${code}×${int(n)}`);
  return parts.length > 0 ? parts.join(", ") : "none";
}

/** The Markdown block for docs/performance.md, plus the notes. */
export function renderMarkdown(r: Report): string {
  const m = r.meta;
  const rateOf = (name: string | undefined) => r.workloads.find((w) => w.name === name)?.median.okRps ?? Number.NaN;
  const lines = [
    `Node ${m.node} · commit ${m.commit} · ${m.database} · ${m.date} · ${m.cpus} CPUs · ` +
      `${m.connections} connections, ${m.warmupSeconds} s warm-up, ${m.runs} × ${m.durationSeconds} s (median)`,
    ...(r.seed ? ["", `Seeded in ${(r.seed.ms / 1000).toFixed(1)} s: ${r.seed.counts.replace(/,/g, ", ")}.`] : []),
    "",
    "| workload | 2xx req/s | run spread | vs bare | p50 | p99 | server CPU/request | non-2xx | errors | statuses (all runs) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const w of r.workloads) {
    const x = w.median;
    const base = w.baseline === undefined ? Number.NaN : rateOf(w.baseline);
    const ratio = Number.isFinite(base) && base > 0 ? `${((x.okRps / base) * 100).toFixed(0)}%` : "n/a";
    const rates = w.runs.map((run) => run.okRps);
    const spread = x.okRps > 0 ? `${(((Math.max(...rates) - Math.min(...rates)) / x.okRps) * 100).toFixed(0)}%` : "n/a";
    lines.push(
      `| ${w.name}${w.rate === undefined ? "" : ` (open loop, ${w.rate} req/s)`} | ${int(x.okRps)} | ${spread} | ${ratio} | ${ms(x.p50Ms)} | ${ms(x.p99Ms)} | ${us(x.cpuUsPerRequest)} | ` +
        `${int(x.non2xx)} | ${int(x.errors + x.timeouts)} | ${statusList(x.statuses)} |`,
    );
  }
  if (r.fanOut) {
    const f = r.fanOut;
    lines.push(
      "",
      `Fan-out to ${f.followers} local followers, one post at a time on an idle server: POST answered in ` +
        f.samples.map((x) => ms(x.postMs)).join(", ") +
        "; in every follower's feed after " +
        f.samples.map((x) => ms(x.delayMs)).join(", ") +
        (f.drainAfterLoadMs === undefined
          ? "."
          : `. After the posting load, the fan-out jobs still queued took ${ms(f.drainAfterLoadMs)} to finish.`),
    );
  }
  lines.push("", "| target | figure | goal | result |", "|---|---:|---|---|");
  for (const t of r.targets) lines.push(`| ${t.what} | ${t.figure} | ${t.goal} | ${t.pass ? "PASS" : "FAIL"} |`);
  if (r.notes.length > 0) lines.push("", ...r.notes.map((n) => `- ${n}`));
  return lines.join("\n");
}
