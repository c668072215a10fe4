// The harness's side of bench/lib/soak-probe-preload.ts: the server's environment that preloads
// it, and reading what it wrote. BENCH_SOAK_HEAPSNAPSHOT=DIR also writes heap snapshots of the
// server into DIR after the first minute and the last (each stalls the server a few seconds).
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Stall } from "./soak-report.ts";

export interface Probe {
  at: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  mallocedMemory: number;
  heapLimit: number;
  spaces: Record<string, { used: number; size: number }>;
  anon: number;
  fileBacked: number;
  threads: number;
}

const PRELOAD = pathToFileURL(join(import.meta.dirname, "soak-probe-preload.ts")).href;
const snapshotDir = process.env.BENCH_SOAK_HEAPSNAPSHOT ? resolve(process.env.BENCH_SOAK_HEAPSNAPSHOT) : undefined;

export function probeEnv(dataDir: string): Record<string, string> {
  // BENCH_SOAK_NODE_OPTIONS: options for the server alone (`--cpu-prof --cpu-prof-dir=DIR`, ...).
  const options = [process.env.NODE_OPTIONS, process.env.BENCH_SOAK_NODE_OPTIONS, `--import=${PRELOAD}`]
    .filter(Boolean)
    .join(" ");
  const env: Record<string, string> = { NODE_OPTIONS: options, SOAK_PROBE_FILE: join(dataDir, "memory-probe.json") };
  if (snapshotDir) {
    mkdirSync(snapshotDir, { recursive: true });
    env.SOAK_PROBE_DIR = snapshotDir;
  }
  return env;
}

export function readProbe(dataDir: string): Probe | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, "memory-probe.json"), "utf8")) as Probe;
  } catch {
    return undefined;
  }
}

/** The stalls the server noted since `seen` lines (bench/lib/soak-probe-preload.ts), and the new count. */
export function readStalls(dataDir: string, seen: number): { stalls: Stall[]; count: number } {
  try {
    const all = readFileSync(join(dataDir, "memory-probe.json.stalls"), "utf8").split("\n").filter(Boolean);
    return { stalls: all.slice(seen).map((l) => JSON.parse(l) as Stall), count: all.length };
  } catch {
    return { stalls: [], count: seen };
  }
}

/** The first probe written after now (it writes every 5 s), or the last one after 7 s. */
export async function freshProbe(dataDir: string): Promise<Probe | undefined> {
  const now = Date.now();
  for (let i = 0; i < 70; i++) {
    const p = readProbe(dataDir);
    if (p && p.at >= now) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  return readProbe(dataDir);
}

/** Asks the server for a heap snapshot (BENCH_SOAK_HEAPSNAPSHOT only) and waits until it is written. */
export async function heapSnapshot(pid: number, label: string, log: (msg: string) => void): Promise<void> {
  if (!snapshotDir) return;
  const before = new Set(readdirSync(snapshotDir));
  process.kill(pid, "SIGUSR2");
  const t0 = performance.now();
  while (performance.now() - t0 < 120_000) {
    await new Promise((r) => setTimeout(r, 500));
    const fresh = readdirSync(snapshotDir).find((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
    if (fresh && existsSync(join(snapshotDir, fresh))) {
      log(`heap snapshot (${label}): ${join(snapshotDir, fresh)}`);
      return;
    }
  }
  log(`no heap snapshot within 2 minutes (${label})`);
}
