// Preloaded into the soak's server (bench/soak.ts, `NODE_OPTIONS=--import=...`): every 5 s it
// writes where the process's memory is to SOAK_PROBE_FILE (one JSON object, replaced each time),
// which the harness reads each minute: V8's heap (used and reserved, by space: new, old, code,
// large objects), memory held outside the heap by Buffers and other external objects, and the
// resident figures of /proc/self/smaps_rollup (anonymous, file-backed). What RSS holds beyond V8's
// heap and the external memory is malloc's (SQLite's page cache and statements, zlib, libuv, the
// allocator's free lists) and the binary's code. SIGUSR2 also writes a heap snapshot to
// SOAK_PROBE_DIR when the harness asks for one (BENCH_SOAK_HEAPSNAPSHOT). Costs nothing measurable:
// a few system calls every 5 s.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
}
if (dir) {
  let n = 0;
  process.on("SIGUSR2", () => {
    // Written under another name first: the harness waits for the whole file.
    const name = join(dir, `soak-${process.pid}-${++n}.heapsnapshot`);
    renameSync(writeHeapSnapshot(`${name}.part`), name);
  });
}
