// The notifications' part of `npm run bench` (bench/run.ts): the reader's notifications, beside
// the bare server serving the same body. (Issue 20 extends this: grouped v2 and conversations.)
import { get } from "./http.ts";
import type { TargetResult, WorkloadResult } from "./report.ts";
import type { PrepareArgs, Prepared } from "./timeline-workloads.ts";

const bareName = (what: string) => `bare node:http (${what}'s body)`;

/** Probes each wanted workload once (its body for the bare server) and returns the workloads. */
export async function prepareNotifications(a: PrepareArgs): Promise<Prepared> {
  const reader = { Authorization: `Bearer ${a.seeded.readerToken}` };
  const all = [
    {
      name: "GET /api/v1/notifications?limit=40 (reader)",
      path: "/api/v1/notifications?limit=40",
      what: "the notifications",
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

/** The notifications' targets (none yet: issue 20 sets them). */
export function notificationTargets(_workloads: WorkloadResult[], _postgres: boolean): TargetResult[] {
  return [];
}
