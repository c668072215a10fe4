// The bare `node:http` baseline of `npm run bench` (bench/run.ts): the bodies Gannet answered when
// probed, served by bench/lib/baseline-server.ts in a process of its own, so each workload's rate
// can be compared with the bare server's for the same body.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Child, freePort, NODE, startChild } from "./children.ts";
import { get, waitUntilAnswering } from "./http.ts";
import { BARE, type Report } from "./report.ts";

const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

export interface Probed {
  name: string;
  url: string;
  headers: Record<string, string>;
}

/** A deterministic JSON body of about 2 KB, for when `/api/v1/instance` does not answer 200. */
function standInBody(): Buffer {
  const rules = Array.from({ length: 12 }, (_, i) => ({ id: String(i + 1), text: `Rule number ${i + 1}: be kind.` }));
  const body = { domain: "bench.example", title: "Gannet", version: "4.3.0", description: "x".repeat(1200), rules };
  return Buffer.from(JSON.stringify(body));
}

/** One request to each workload, so the report shows what the server answers before the load. */
export async function probe(targets: Probed[], notes: string[], log: (m: string) => void) {
  const probes: Report["probes"] = [];
  let baseline: { body: Buffer; contentType: string } | undefined;
  for (const t of targets) {
    const a = await get(t.url, t.headers);
    const path = new URL(t.url).pathname;
    probes.push({ path, status: a.status, contentType: a.contentType, bytes: a.body.length });
    log(`probe ${path}: ${a.status} ${a.contentType} ${a.body.length} B`);
    if (a.status !== 200) notes.push(`${path} answered ${a.status} when probed: its figures are not throughput.`);
    if (path === "/api/v1/instance" && a.status === 200) baseline = { body: a.body, contentType: a.contentType };
  }
  if (baseline) {
    notes.push(`The bare server served the ${baseline.body.length}-byte body of /api/v1/instance.`);
  } else {
    baseline = { body: standInBody(), contentType: "application/json; charset=utf-8" };
    notes.push(`The bare server served a ${baseline.body.length}-byte JSON stand-in (/api/v1/instance was not 200).`);
  }
  return { probes, baseline };
}

/**
 * The bare server: `/0` answers the small body (workload BARE), `/N` the N-th of `pages` (each
 * its own workload, named by the page).
 */
export async function startBaseline(
  dir: string,
  baseline: { body: Buffer; contentType: string },
  pages: { name: string; body: Buffer }[],
): Promise<{ child: Child; targets: Probed[] }> {
  const port = await freePort();
  const files = [baseline.body, ...pages.map((p) => p.body)].map((body, i) => {
    const file = join(dir, `baseline-body-${i}.json`);
    writeFileSync(file, body);
    return file;
  });
  const args = [join(BENCH_DIR, "lib/baseline-server.ts"), String(port), baseline.contentType, ...files];
  const t0 = performance.now();
  const child = startChild(NODE, args, { env: { PATH: process.env.PATH ?? "" } });
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilAnswering(url, child, t0);
  return {
    child,
    targets: [
      { name: BARE, url: `${url}0`, headers: {} },
      ...pages.map((p, i) => ({ name: p.name, url: `${url}${i + 1}`, headers: {} })),
    ],
  };
}
