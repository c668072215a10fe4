// The trends part of `npm run bench` (bench/run.ts): the two public lists as workloads beside the
// bare server with the same bodies, and the scoring job (the scheduler's `trends.refresh`, which
// scores hashtags, posts and links over the seeded instance) timed inside the running server while
// the reader's home timeline is asked at a steady rate.
//
// The harness decides when scoring runs: it makes the periodic task due through the scheduler's
// lease (the server takes it at its next tick, within a second), watches the lease until the run
// is over, then moves its next run a day away, so the five-minute schedule cannot land inside
// another workload's measurement.
import { sleep } from "./children.ts";
import type { BenchDatabase } from "./database.ts";
import { get } from "./http.ts";
import { openLoop, type Sample, stats } from "./open-loop.ts";
import type { Report, TargetResult, WorkloadResult } from "./report.ts";

export const TRENDS_TASK = "trends.refresh";
export const TRENDS_STATUSES = "GET /api/v1/trends/statuses";
export const TRENDS_TAGS = "GET /api/v1/trends/tags";
export const TRENDS_STATUSES_READER = "GET /api/v1/trends/statuses (reader)";
export const TRENDS_TARGET = 0.5;
export const REFRESH_TARGET_MS = 5000;
export const HOME_P99_TARGET_MS = 50;
const DAY_MS = 86_400_000;

export interface TrendWorkload {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** The bare workload serving the same body. */
  baseline: string;
}

/** The trends workloads: anonymous (served from the answer cache) and as the reader (its languages). */
export function trendWorkloads(reader: Record<string, string>): TrendWorkload[] {
  return [
    { name: TRENDS_STATUSES, path: "/api/v1/trends/statuses", headers: {}, baseline: bareName("trends/statuses") },
    { name: TRENDS_TAGS, path: "/api/v1/trends/tags", headers: {}, baseline: bareName("trends/tags") },
    {
      name: TRENDS_STATUSES_READER,
      path: "/api/v1/trends/statuses",
      headers: reader,
      baseline: bareName("trends/statuses as the reader"),
    },
  ];
}

export const bareName = (what: string) => `bare node:http (${what}' body)`;

/** Each workload's body as the server answers it now, with its item count, for the bare server. */
export async function probeTrends(origin: string, workloads: TrendWorkload[]) {
  const out: { workload: TrendWorkload; body: Buffer; status: number; contentType: string; items: number }[] = [];
  for (const w of workloads) {
    const a = await get(`${origin}${w.path}`, w.headers);
    let items = -1;
    try {
      items = (JSON.parse(a.body.toString("utf8")) as unknown[]).length;
    } catch {}
    out.push({ workload: w, body: a.body, status: a.status, contentType: a.contentType, items });
  }
  return out;
}

/**
 * Once the server is up: its start-up scoring waited for and one more run, then each list's body
 * probed (for the report and the bare server). Returns the workloads, each naming the bare page
 * with its body (the reader's posts list shares the anonymous one's when the bodies are equal).
 */
export async function prepareTrends(
  origin: string,
  reader: Record<string, string>,
  db: BenchDatabase,
  wanted: (name: string) => boolean,
  probes: Report["probes"],
  notes: string[],
  log: (m: string) => void,
) {
  await settleRefresh(db);
  const first = await runRefresh(db);
  const probed = await probeTrends(
    origin,
    trendWorkloads(reader).filter((w) => wanted(w.name)),
  );
  const targets: { name: string; url: string; headers: Record<string, string>; baseline?: string }[] = [];
  const pages: { name: string; body: Buffer }[] = [];
  for (const p of probed) {
    const same = probed.find((q) => q.body.equals(p.body));
    if (same === p) pages.push({ name: p.workload.baseline, body: p.body });
    targets.push({ ...p.workload, url: `${origin}${p.workload.path}`, baseline: same?.workload.baseline });
    probes.push({ path: p.workload.name.slice(4), status: p.status, contentType: p.contentType, bytes: p.body.length });
    log(`probe ${p.workload.name}: ${p.status} ${p.body.length} B, ${p.items} items`);
  }
  if (probed.length > 0) {
    notes.push(
      `Trends: one scoring run on the measured server took ${((first.end - first.start) / 1000).toFixed(2)} s before the workloads; ` +
        probed.map((p) => `${p.workload.name} held ${p.items} items (${p.body.length} bytes)`).join(", ") +
        "; each is compared with the bare server serving its body (the reader's posts list shares the anonymous one's when the bodies are equal).",
    );
  }
  return { targets, pages };
}

/** Waits until the refresh has run at least once and is not running. */
async function idleLease(db: BenchDatabase, limitMs: number) {
  const t0 = Date.now();
  let lease = await db.lease(TRENDS_TASK);
  while (!lease?.lastRunAt || lease.lockedUntil !== null) {
    if (Date.now() - t0 > limitMs) {
      throw new Error(`the scheduler did not finish ${TRENDS_TASK} in time (lease: ${JSON.stringify(lease)})`);
    }
    await sleep(20);
    lease = await db.lease(TRENDS_TASK);
  }
  return lease;
}

/**
 * Waits for the refresh the server runs right after start-up, then puts the next one off a day,
 * so the lists stay as scored and no run lands inside a workload.
 */
export async function settleRefresh(db: BenchDatabase, limitMs = 300_000): Promise<void> {
  await idleLease(db, limitMs);
  await db.setNextRun(TRENDS_TASK, new Date(Date.now() + DAY_MS));
}

/**
 * Has the server run the refresh now and waits until it is over; returns when it began (the
 * lease's start, on this process's performance clock) and when it was seen over (polled every
 * 5 ms). The next run is then put off a day.
 */
export async function runRefresh(db: BenchDatabase, limitMs = 300_000): Promise<{ start: number; end: number }> {
  const t0 = Date.now();
  const before = (await idleLease(db, limitMs)).lastRunAt;
  await db.setNextRun(TRENDS_TASK, new Date(Date.now() - 1000));
  let lease = await db.lease(TRENDS_TASK);
  while (!lease?.lastRunAt || lease.lastRunAt === before || lease.lockedUntil !== null) {
    if (Date.now() - t0 > limitMs) throw new Error(`${TRENDS_TASK} did not finish within ${limitMs} ms`);
    await sleep(5);
    lease = await db.lease(TRENDS_TASK);
  }
  const endWall = Date.now();
  const end = performance.now();
  await db.setNextRun(TRENDS_TASK, new Date(endWall + DAY_MS));
  return { start: end - (endWall - Date.parse(lease.lastRunAt)), end };
}

export interface ScoringResult {
  rate: number;
  runsMs: number[];
  before: ReturnType<typeof stats>;
  during: ReturnType<typeof stats>;
}

/**
 * `runs` refreshes one after another (a second apart) while `url` is asked `rate` times a second
 * (open loop), after `baselineS` seconds of the same load alone.
 */
export async function measureScoring(opts: {
  url: string;
  headers: Record<string, string>;
  db: BenchDatabase;
  runs: number;
  rate: number;
  baselineS: number;
}): Promise<ScoringResult> {
  const warm = openLoop(opts.url, opts.headers, Math.min(opts.rate, 100));
  await sleep(2000);
  await warm.stop();
  const load = openLoop(opts.url, opts.headers, opts.rate);
  await sleep(opts.baselineS * 1000);
  const baselineEnd = performance.now();
  const windows: { start: number; end: number }[] = [];
  for (let i = 0; i < opts.runs; i++) {
    windows.push(await runRefresh(opts.db));
    await sleep(1000);
  }
  await load.stop();
  const inRun = (s: Sample) => windows.some((w) => s.due >= w.start && s.due < w.end);
  return {
    rate: opts.rate,
    runsMs: windows.map((w) => w.end - w.start),
    before: stats(load.samples, 0, baselineEnd),
    during: stats(load.samples.filter(inRun), Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY),
  };
}

/** The targets of issue 17: each list at half the bare server's rate; scoring under 5 s, home p99 under 50 ms. */
export function trendsTargets(workloads: WorkloadResult[], scoring?: ScoringResult): TargetResult[] {
  const out: TargetResult[] = [];
  for (const w of workloads) {
    if (!w.name.startsWith("GET /api/v1/trends/") || !w.baseline) continue;
    const bare = workloads.find((x) => x.name === w.baseline)?.median;
    if (!bare) continue;
    const r = w.median.okRps / bare.okRps;
    out.push({
      what: `${w.name} vs bare server, same body (2xx req/s)`,
      figure: `${(r * 100).toFixed(0)}% (${Math.round(w.median.okRps)} / ${Math.round(bare.okRps)})`,
      goal: `≥ ${TRENDS_TARGET * 100}%`,
      pass: r >= TRENDS_TARGET && w.median.non2xx === 0,
    });
  }
  if (scoring) {
    const worst = Math.max(...scoring.runsMs);
    const d = scoring.during;
    out.push(
      {
        what: `trends scoring (${TRENDS_TASK}) over the seeded instance, worst of ${scoring.runsMs.length}`,
        figure: `${(worst / 1000).toFixed(2)} s (${scoring.runsMs.map((x) => (x / 1000).toFixed(2)).join(", ")})`,
        goal: `< ${REFRESH_TARGET_MS / 1000} s`,
        pass: worst < REFRESH_TARGET_MS,
      },
      {
        what: `home timeline p99 while scoring (open loop, ${scoring.rate} req/s)`,
        figure:
          `${d.p99.toFixed(1)} ms (p50 ${d.p50.toFixed(1)}, max ${d.max.toFixed(0)}; ${d.count} requests, ${d.failed} failed; ` +
          `before: p50 ${scoring.before.p50.toFixed(1)}, p99 ${scoring.before.p99.toFixed(1)} ms)`,
        goal: `< ${HOME_P99_TARGET_MS} ms`,
        pass: d.p99 < HOME_P99_TARGET_MS && d.failed === 0,
      },
    );
  }
  return out;
}
