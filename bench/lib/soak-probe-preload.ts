// Preloaded into the soak's server (bench/soak.ts, `NODE_OPTIONS=--import=...`): every 5 s it
// writes where the process's memory is to SOAK_PROBE_FILE (one JSON object, replaced each time),
// which the harness reads each minute: V8's heap (used and reserved, by space: new, old, code,
// large objects), memory held outside the heap by Buffers and other external objects, and the
// resident figures of /proc/self/smaps_rollup (anonymous, file-backed). What RSS holds beyond V8's
// heap and the external memory is malloc's (SQLite's page cache and statements, zlib, libuv, the
// allocator's free lists) and the binary's code. SIGUSR2 also writes a heap snapshot to
// SOAK_PROBE_DIR when the harness asks for one (BENCH_SOAK_HEAPSNAPSHOT). Costs nothing measurable:
// a few system calls every 5 s.
import { subscribe } from "node:diagnostics_channel";
import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from "node:v8";

const file = process.env.SOAK_PROBE_FILE;
const dir = process.env.SOAK_PROBE_DIR;
const MIB = 1024 * 1024;
const mib = (n: number) => Math.round((n / MIB) * 10) / 10;

function smaps(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const line of readFileSync("/proc/self/smaps_rollup", "utf8").split("\n")) {
      const m = /^(\w+):\s+(\d+) kB$/.exec(line);
      if (m) out[m[1] as string] = Math.round((Number(m[2]) / 1024) * 10) / 10;
    }
  } catch {
    // Not Linux: the other figures still say most of it.
  }
  return out;
}

function sample() {
  const u = process.memoryUsage();
  const spaces: Record<string, { used: number; size: number }> = {};
  for (const s of getHeapSpaceStatistics()) {
    spaces[s.space_name.replace(/_space$/, "")] = { used: mib(s.space_used_size), size: mib(s.space_size) };
  }
  const h = getHeapStatistics();
  const sm = smaps();
  return {
    at: Date.now(),
    rss: mib(u.rss),
    heapUsed: mib(u.heapUsed),
    heapTotal: mib(u.heapTotal),
    external: mib(u.external),
    arrayBuffers: mib(u.arrayBuffers),
    mallocedMemory: mib(h.malloced_memory),
    heapLimit: mib(h.heap_size_limit),
    spaces,
    anon: sm.Anonymous ?? 0,
    fileBacked: (sm.Rss ?? 0) - (sm.Anonymous ?? 0),
    threads: Number(/^Threads:\s+(\d+)$/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0),
  };
}

if (file) {
  const write = () => {
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(sample()));
      renameSync(`${file}.tmp`, file);
    } catch {
      // The data directory is being removed at the end of the run.
    }
  };
  write();
  setInterval(write, 5000).unref();
  // Stalls: a 20 ms timer that fires more than STALL_MS late means the event loop was held that
  // long. Each is appended to SOAK_PROBE_FILE.stalls for the harness to print, with what overlapped
  // it: the periodic tasks and jobs running or ended within it (the `gannet:activity` channel,
  // src/lib/activity.ts), the garbage collections (kind and ms) and the heap used before and after.
  // Written 200 ms after the stall, once the GC entries of its time have been delivered.
  const STALL_MS = 200;
  const KEEP_MS = 10_000;
  const running = new Map<string, number>();
  const ended: { name: string; start: number; end: number }[] = [];
  const gcs: { kind: number; start: number; ms: number }[] = [];
  const prune = (now: number) => {
    while (ended.length > 0 && (ended[0]?.end ?? 0) < now - KEEP_MS) ended.shift();
    while (gcs.length > 0 && (gcs[0]?.start ?? 0) < now - KEEP_MS) gcs.shift();
  };
  subscribe("gannet:activity", (m) => {
    const e = m as { kind: string; name: string; phase: string; at: number };
    const key = `${e.kind} ${e.name}`;
    if (e.phase === "start") running.set(key, (running.get(key) ?? 0) + 1);
    else {
      const n = (running.get(key) ?? 1) - 1;
      if (n > 0) running.set(key, n);
      else running.delete(key);
      ended.push({ name: key, start: e.at, end: e.at });
    }
  });
  new PerformanceObserver((list) => {
    for (const g of list.getEntries()) {
      gcs.push({ kind: (g as { detail?: { kind?: number } }).detail?.kind ?? 0, start: g.startTime, ms: g.duration });
    }
  }).observe({ entryTypes: ["gc"] });
  const GC_KINDS: Record<number, string> = { 1: "scavenge", 2: "mark-compact", 4: "incremental", 8: "weak-callbacks" };
  let last = performance.now();
  let heapBefore = process.memoryUsage().heapUsed;
  setInterval(() => {
    const now = performance.now();
    const late = now - last - 20;
    last = now;
    const heapNow = process.memoryUsage().heapUsed;
    if (late > STALL_MS) {
      const from = now - late - 20;
      const during = [...running.keys()];
      const before = heapBefore;
      setTimeout(() => {
        prune(performance.now());
        const stall = {
          at: Date.now(),
          uptimeMs: Math.round(now),
          lateMs: Math.round(late),
          heapBefore: mib(before),
          heapAfter: mib(heapNow),
          running: during,
          ended: [...new Set(ended.filter((a) => a.end >= from && a.end <= now).map((a) => a.name))],
          gc: gcs
            .filter((g) => g.start + g.ms >= from && g.start <= now)
            .map((g) => `${GC_KINDS[g.kind] ?? g.kind} ${Math.round(g.ms)} ms`),
        };
        try {
          appendFileSync(`${file}.stalls`, `${JSON.stringify(stall)}\n`);
        } catch {
          // As above.
        }
      }, 200).unref();
    }
    heapBefore = heapNow;
  }, 20).unref();
}
if (dir) {
  let n = 0;
  process.on("SIGUSR2", () => {
    // Written under another name first: the harness waits for the whole file.
    const name = join(dir, `soak-${process.pid}-${++n}.heapsnapshot`);
    renameSync(writeHeapSnapshot(`${name}.part`), name);
  });
}
