// The timelines' part of `npm run bench` (bench/run.ts): the public local timeline and the seeded
// author's statuses, read by the reader, each beside the bare server serving the same body.
// (Issue 20 extends this to every timeline: see docs/performance.md.)
import { get } from "./http.ts";
import type { Report, TargetResult, WorkloadResult } from "./report.ts";

export interface BenchTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
  baseline?: string;
  rate?: number;
}

/** What the workload modules are given: the running server and the seed's ids and tokens. */
export interface PrepareArgs {
  origin: string;
  seeded: { readerId: string; readerToken: string; authorId: string; authorToken: string; tag: string };
  /** Whether the run measures a workload of this name (BENCH_ONLY). */
  wanted: (name: string) => boolean;
  probes: Report["probes"];
  notes: string[];
  log: (m: string) => void;
  /** The run is on PostgreSQL (the targets differ). */
  postgres: boolean;
}

export interface Prepared {
  targets: BenchTarget[];
  /** Bodies for the bare server: each target's `baseline` names one. */
  pages: { name: string; body: Buffer }[];
}

const bareName = (what: string) => `bare node:http (${what}'s body)`;

/** Probes each wanted workload once (its body for the bare server) and returns the workloads. */
export async function prepareTimelines(a: PrepareArgs): Promise<Prepared> {
  const reader = { Authorization: `Bearer ${a.seeded.readerToken}` };
  const all = [
    {
      name: "GET /api/v1/timelines/public?local=true&limit=40 (reader)",
      path: "/api/v1/timelines/public?local=true&limit=40",
      what: "the public local timeline",
    },
    {
      name: "GET /api/v1/accounts/:author/statuses?limit=40 (reader)",
      path: `/api/v1/accounts/${a.seeded.authorId}/statuses?limit=40`,
      what: "the author's statuses",
    },
  ];
  const out: Prepared = { targets: [], pages: [] };
  for (const w of all) {
    if (!a.wanted(w.name)) continue;
    const r = await get(`${a.origin}${w.path}`, reader);
    a.probes.push({ path: w.path, status: r.status, contentType: r.contentType, bytes: r.body.length });
    a.log(`probe ${w.path}: ${r.status} ${r.body.length} B`);
    out.pages.push({ name: bareName(w.what), body: r.body });
    out.targets.push({ name: w.name, url: `${a.origin}${w.path}`, headers: reader, baseline: bareName(w.what) });
  }
  return out;
}

/** The timelines' targets (none yet: issue 20 sets them). */
export function timelineTargets(_workloads: WorkloadResult[], _postgres: boolean): TargetResult[] {
  return [];
}
