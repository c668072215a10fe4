// The timelines' part of `npm run bench` (bench/run.ts): every timeline but home, read by the
// seeded reader (follows 500, with blocks, mutes, lists, bookmarks and favourites), each beside
// the bare server serving the same body, and three deep pages (`max_id` 10,000 posts back, found
// by paging through the API here). Every workload's name starts with "timeline:", so
// `BENCH_ONLY=timeline:` runs just these. Targets (issue 20): each ≥ 50% of the bare server and
// p99 < 15 ms at 50 connections on SQLite (≥ 30% on PostgreSQL, no p99 target there); deep pages
// p99 < 50 ms.
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

/** The word every timeline workload's name starts with (BENCH_ONLY=timeline:). */
export const TIMELINE_PREFIX = "timeline:";
/** How far back the deep pages start (statuses of the timeline as read). */
export const DEEP_ROWS = 10_000;
const RATIO_TARGET = 0.5;
const RATIO_TARGET_PG = 0.3;
const P99_TARGET_MS = 15;
const DEEP_P99_TARGET_MS = 50;

const bareName = (what: string) => `bare node:http (${what}'s body)`;
const isDeep = (name: string) => name.includes(", deep: ");

/** The `max_id` of the Link header's next page, if any. */
function nextMaxId(link: string | undefined): string | undefined {
  return link === undefined ? undefined : /[?&]max_id=(\d+)>; rel="next"/.exec(link)?.[1];
}

async function getWithLink(url: string, headers: Record<string, string>) {
  // bench/lib/http.ts `get` drops headers; the Link header is needed here.
  const r = await fetch(url, { headers });
  return { status: r.status, link: r.headers.get("link") ?? undefined, body: await r.text() };
}

/**
 * Pages `path` (limit 40) until `rows` statuses back or the last full page: the `max_id` there,
 * how deep it is, and the statuses' authors seen on the way (by count).
 */
async function deepMaxId(origin: string, path: string, headers: Record<string, string>, rows: number) {
  const authors = new Map<string, number>();
  let maxId: string | undefined;
  let depth = 0;
  let before: string | undefined;
  while (depth < rows) {
    const sep = path.includes("?") ? "&" : "?";
    const r = await getWithLink(`${origin}${path}${sep}limit=40${maxId ? `&max_id=${maxId}` : ""}`, headers);
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body.slice(0, 200)}`);
    for (const s of JSON.parse(r.body) as { account: { id: string } }[]) {
      authors.set(s.account.id, (authors.get(s.account.id) ?? 0) + 1);
    }
    const next = nextMaxId(r.link);
    if (next === undefined) {
      // The end: the page before the last full one.
      maxId = before;
      depth -= 40;
      break;
    }
    before = maxId;
    maxId = next;
    depth += 40;
  }
  return { maxId, depth: Math.max(0, depth), authors };
}

/** Probes each wanted workload once (its body for the bare server) and returns the workloads. */
export async function prepareTimelines(a: PrepareArgs): Promise<Prepared> {
  const reader = { Authorization: `Bearer ${a.seeded.readerToken}` };
  const name = (what: string) => `${TIMELINE_PREFIX} ${what}`;
  const all: { name: string; path: () => Promise<string | undefined>; what: string }[] = [
    {
      name: name("GET /api/v1/timelines/public?local=true&limit=40 (reader)"),
      path: async () => "/api/v1/timelines/public?local=true&limit=40",
      what: "the public local timeline",
    },
    {
      name: name("GET /api/v1/timelines/public?limit=40 (reader, federated)"),
      path: async () => "/api/v1/timelines/public?limit=40",
      what: "the federated timeline",
    },
    {
      name: name(`GET /api/v1/timelines/tag/:busiest?limit=40 (reader, #${a.seeded.tag})`),
      path: async () => `/api/v1/timelines/tag/${encodeURIComponent(a.seeded.tag)}?limit=40`,
      what: "the busiest hashtag's timeline",
    },
    {
      name: name("GET /api/v1/accounts/:author/statuses?limit=40 (reader)"),
      path: async () => `/api/v1/accounts/${a.seeded.authorId}/statuses?limit=40`,
      what: "the author's statuses",
    },
    {
      name: name("GET /api/v1/timelines/list/:id?limit=40 (reader's largest list)"),
      path: async () => {
        const r = await getWithLink(`${a.origin}/api/v1/lists`, reader);
        const lists = JSON.parse(r.body) as { id: string }[];
        let best: { id: string; n: number } | undefined;
        for (const l of lists) {
          const m = await getWithLink(`${a.origin}/api/v1/lists/${l.id}/accounts?limit=80`, reader);
          const n = (JSON.parse(m.body) as unknown[]).length;
          if (best === undefined || n > best.n) best = { id: l.id, n };
        }
        return best && `/api/v1/timelines/list/${best.id}?limit=40`;
      },
      what: "the reader's list",
    },
    {
      name: name("GET /api/v1/favourites?limit=40 (reader)"),
      path: async () => "/api/v1/favourites?limit=40",
      what: "the reader's favourites",
    },
    {
      name: name("GET /api/v1/bookmarks?limit=40 (reader)"),
      path: async () => "/api/v1/bookmarks?limit=40",
      what: "the reader's bookmarks",
    },
  ];
  // The deep pages: the federated timeline's and the busiest hashtag's, and the statuses of the
  // busiest author met on the federated one (as deep as its statuses go, up to DEEP_ROWS).
  let busiest: string | undefined;
  let federatedDeep: Promise<Awaited<ReturnType<typeof deepMaxId>>> | undefined;
  const federated = () => {
    federatedDeep ??= deepMaxId(a.origin, "/api/v1/timelines/public", reader, DEEP_ROWS);
    return federatedDeep;
  };
  const deep = (path: string, d: { maxId: string | undefined; depth: number }, what: string) => {
    a.notes.push(`Deep page of ${what}: max_id ${d.maxId}, ${d.depth} statuses back.`);
    return d.maxId === undefined ? undefined : `${path}${path.includes("?") ? "&" : "?"}limit=40&max_id=${d.maxId}`;
  };
  all.push(
    {
      name: name(`GET /api/v1/timelines/public?limit=40&max_id=… (reader, deep: ${DEEP_ROWS} back)`),
      path: async () => deep("/api/v1/timelines/public", await federated(), "the federated timeline"),
      what: "the federated timeline's deep page",
    },
    {
      name: name(`GET /api/v1/timelines/tag/:busiest?limit=40&max_id=… (reader, deep: ${DEEP_ROWS} back)`),
      path: async () => {
        const path = `/api/v1/timelines/tag/${encodeURIComponent(a.seeded.tag)}`;
        return deep(path, await deepMaxId(a.origin, path, reader, DEEP_ROWS), `#${a.seeded.tag}`);
      },
      what: "the busiest hashtag's deep page",
    },
    {
      name: name(`GET /api/v1/accounts/:busiest/statuses?limit=40&max_id=… (reader, deep: up to ${DEEP_ROWS} back)`),
      path: async () => {
        const seen = [...(await federated()).authors].sort((x, y) => y[1] - x[1]);
        busiest = seen[0]?.[0];
        if (busiest === undefined) return undefined;
        const path = `/api/v1/accounts/${busiest}/statuses`;
        return deep(path, await deepMaxId(a.origin, path, reader, DEEP_ROWS), `the statuses of account ${busiest}`);
      },
      what: "the busiest account's deep page",
    },
  );
  const out: Prepared = { targets: [], pages: [] };
  for (const w of all) {
    if (!a.wanted(w.name)) continue;
    const path = await w.path();
    if (path === undefined) {
      a.notes.push(`${w.name}: nothing to ask (the seed has none), left out.`);
      continue;
    }
    const r = await get(`${a.origin}${path}`, reader);
    a.probes.push({ path, status: r.status, contentType: r.contentType, bytes: r.body.length });
    const count = r.status === 200 ? (JSON.parse(r.body.toString()) as unknown[]).length : 0;
    a.log(`probe ${path}: ${r.status} ${r.body.length} B, ${count} statuses`);
    if (count < 40) a.notes.push(`${w.name}: the page holds ${count} statuses (${r.body.length} bytes).`);
    out.pages.push({ name: bareName(w.what), body: r.body });
    out.targets.push({ name: w.name, url: `${a.origin}${path}`, headers: reader, baseline: bareName(w.what) });
  }
  return out;
}

/**
 * The timelines' targets: on SQLite each ≥ 50% of the bare server with the same body and p99 <
 * 15 ms at 50 connections (closed loop); on PostgreSQL ≥ 30% (no p99 target); the deep pages p99
 * < 50 ms on both.
 */
export function timelineTargets(workloads: WorkloadResult[], postgres: boolean): TargetResult[] {
  const out: TargetResult[] = [];
  const ratioTarget = postgres ? RATIO_TARGET_PG : RATIO_TARGET;
  for (const w of workloads) {
    if (!w.name.startsWith(TIMELINE_PREFIX)) continue;
    const m = w.median;
    const cpu = `${Math.round(m.cpuUsPerRequest)} µs CPU/request`;
    if (isDeep(w.name)) {
      out.push({
        what: `${w.name} p99 (50 connections)`,
        figure: `${m.p99Ms.toFixed(2)} ms (p50 ${m.p50Ms.toFixed(2)} ms, ${Math.round(m.okRps)} req/s, ${cpu})`,
        goal: `< ${DEEP_P99_TARGET_MS} ms`,
        pass: m.p99Ms < DEEP_P99_TARGET_MS && m.non2xx === 0,
      });
      continue;
    }
    const bare = w.baseline ? workloads.find((x) => x.name === w.baseline)?.median : undefined;
    if (bare) {
      const r = m.okRps / bare.okRps;
      out.push({
        what: `${w.name} vs bare server, same body (2xx req/s)`,
        figure: `${(r * 100).toFixed(0)}% (${Math.round(m.okRps)} / ${Math.round(bare.okRps)}), ${cpu}`,
        goal: `≥ ${ratioTarget * 100}%`,
        pass: r >= ratioTarget && m.non2xx === 0,
      });
    }
    if (!postgres) {
      out.push({
        what: `${w.name} p99 (50 connections)`,
        figure: `${m.p99Ms.toFixed(2)} ms (p50 ${m.p50Ms.toFixed(2)} ms)`,
        goal: `< ${P99_TARGET_MS} ms`,
        pass: m.p99Ms < P99_TARGET_MS && m.non2xx === 0,
      });
    }
  }
  return out;
}
