import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const MIB = 1024 * 1024;

/** Kernel clock ticks per second (the unit of utime/stime in /proc/PID/stat). */
export function clockTicksPerSecond(): number {
  try {
    const n = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    if (Number.isInteger(n) && n > 0) return n;
  } catch {
    // getconf missing: Linux has used 100 for decades.
  }
  return 100;
}

/** utime + stime of a process (all its threads), in clock ticks. */
export function cpuTicks(pid: number): number {
  return ticksOf(`/proc/${pid}/stat`);
}

/**
 * utime + stime of a process's main thread (the one running JavaScript; not V8's GC helpers,
 * libuv's pool or SQLite's checkpointer), in clock ticks.
 */
export function mainThreadCpuTicks(pid: number): number {
  return ticksOf(`/proc/${pid}/task/${pid}/stat`);
}

function ticksOf(path: string): number {
  const stat = readFileSync(path, "utf8");
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state), so utime (field 14) is fields[11] and stime (field 15) fields[12].
  return Number(fields[11]) + Number(fields[12]);
}

/** Resident memory of a process from /proc/PID/status, in MiB. */
export interface Memory {
  /** VmRSS: resident now. */
  rss: number;
  /** RssAnon: heap, stacks and other anonymous pages. */
  anon: number;
  /** RssFile: mapped files (mostly the node binary's code). */
  file: number;
  /** VmHWM: the highest resident figure so far. */
  peak: number;
}

export function memory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status);
    if (!m) throw new Error(`no ${name} in /proc/${pid}/status`);
    return (Number(m[1]) * 1024) / MIB;
  };
  return { rss: field("VmRSS"), anon: field("RssAnon"), file: field("RssFile"), peak: field("VmHWM") };
}
