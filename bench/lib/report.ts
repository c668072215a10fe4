import type { MeasuredRun } from "./load.ts";
import type { Memory } from "./proc.ts";

export interface WorkloadResult {
  name: string;
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
  workloads: WorkloadResult[];
  targets: TargetResult[];
  notes: string[];
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : "n/a");
const us = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} µs` : "n/a");
export const mib = (n: number) => `${n.toFixed(1)} MiB`;

function statusList(statuses: Record<string, number>): string {
  const parts = Object.entries(statuses).map(([code, n]) => `${code}×${int(n)}`);
  return parts.length > 0 ? parts.join(", ") : "none";
}

/** The Markdown block for the README's performance section, plus the notes. */
export function renderMarkdown(r: Report, baselineName: string): string {
  const m = r.meta;
  const base = r.workloads.find((w) => w.name === baselineName)?.median.okRps ?? Number.NaN;
  const lines = [
    `Node ${m.node} · commit ${m.commit} · ${m.database} · ${m.date} · ${m.cpus} CPUs · ` +
      `${m.connections} connections, ${m.warmupSeconds} s warm-up, ${m.runs} × ${m.durationSeconds} s (median)`,
    "",
    "| workload | 2xx req/s | vs bare | p50 | p99 | server CPU/request | non-2xx | errors | statuses (all runs) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const w of r.workloads) {
    const x = w.median;
    const ratio = Number.isFinite(base) && base > 0 ? `${((x.okRps / base) * 100).toFixed(0)}%` : "n/a";
    lines.push(
      `| ${w.name} | ${int(x.okRps)} | ${ratio} | ${ms(x.p50Ms)} | ${ms(x.p99Ms)} | ${us(x.cpuUsPerRequest)} | ` +
        `${int(x.non2xx)} | ${int(x.errors + x.timeouts)} | ${statusList(x.statuses)} |`,
    );
  }
  lines.push("", "| target | figure | goal | result |", "|---|---:|---|---|");
  for (const t of r.targets) lines.push(`| ${t.what} | ${t.figure} | ${t.goal} | ${t.pass ? "PASS" : "FAIL"} |`);
  if (r.notes.length > 0) lines.push("", ...r.notes.map((n) => `- ${n}`));
  return lines.join("\n");
}
