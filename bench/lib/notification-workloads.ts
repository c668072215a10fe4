// The notifications' part of `npm run bench` (bench/run.ts): the reader's notifications (v1 and
// Mastodon 4.3's grouped v2) and conversations, each beside the bare server serving the same body
// (issue 20: at least 50% of it on SQLite, 30% on PostgreSQL; p99 under 15 ms on SQLite).
import { get } from "./http.ts";
import type { TargetResult, WorkloadResult } from "./report.ts";
import type { PrepareArgs, Prepared } from "./timeline-workloads.ts";

const bareName = (what: string) => `bare node:http (${what}'s body)`;

const WORKLOADS = [
  {
    name: "GET /api/v1/notifications?limit=40 (reader)",
    path: "/api/v1/notifications?limit=40",
    what: "the notifications",
  },
  {
    name: "GET /api/v2/notifications?limit=40 (reader, grouped notifications)",
    path: "/api/v2/notifications?limit=40",
    what: "the grouped notifications",
  },
  {
    name: "GET /api/v1/conversations?limit=40 (reader)",
    path: "/api/v1/conversations?limit=40",
    what: "the conversations",
  },
];

/** Probes each wanted workload once (its body for the bare server) and returns the workloads. */
export async function prepareNotifications(a: PrepareArgs): Promise<Prepared> {
  const reader = { Authorization: `Bearer ${a.seeded.readerToken}` };
  const out: Prepared = { targets: [], pages: [] };
  for (const w of WORKLOADS) {
    if (!a.wanted(w.name)) continue;
    const r = await get(`${a.origin}${w.path}`, reader);
    a.probes.push({ path: w.path, status: r.status, contentType: r.contentType, bytes: r.body.length });
    a.log(`probe ${w.path}: ${r.status} ${r.body.length} B`);
    if (r.status === 200) {
      const json = JSON.parse(r.body.toString("utf8"));
      const held = Array.isArray(json)
        ? `${json.length} entries`
        : `${json.notification_groups?.length} groups, ${json.accounts?.length} accounts, ${json.statuses?.length} statuses`;
      a.notes.push(`${w.name}: ${held}, ${r.body.length} bytes.`);
    }
    out.pages.push({ name: bareName(w.what), body: r.body });
    out.targets.push({ name: w.name, url: `${a.origin}${w.path}`, headers: reader, baseline: bareName(w.what) });
  }
  return out;
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");

/** Each workload measured: its rate against the bare server's with its body, and its p99 (SQLite). */
export function notificationTargets(workloads: WorkloadResult[], postgres: boolean): TargetResult[] {
  const goal = postgres ? 0.3 : 0.5;
  const out: TargetResult[] = [];
  for (const w of WORKLOADS) {
    const m = workloads.find((x) => x.name === w.name);
    const bare = workloads.find((x) => x.name === bareName(w.what));
    if (!m || !bare) continue;
    const r = m.median.okRps / bare.median.okRps;
    const cpu = `${m.median.cpuUsPerRequest.toFixed(1)} µs CPU/request`;
    out.push({
      what: `${w.name.replace(/ \(reader.*\)$/, "")} vs bare server, same body (2xx req/s)`,
      figure: `${(r * 100).toFixed(0)}% (${int(m.median.okRps)} / ${int(bare.median.okRps)}; ${cpu})`,
      goal: `≥ ${goal * 100}%`,
      pass: r >= goal && m.median.non2xx === 0,
    });
    if (!postgres) {
      out.push({
        what: `${w.name.replace(/ \(reader.*\)$/, "")} p99, closed loop`,
        figure: `${m.median.p99Ms.toFixed(2)} ms`,
        goal: "< 15 ms",
        pass: m.median.p99Ms < 15,
      });
    }
  }
  return out;
}
