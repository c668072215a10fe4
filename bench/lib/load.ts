import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { NODE, startChild, stopChild, timeout } from "./children.ts";
import { cpuTicks, mainThreadCpuTicks } from "./proc.ts";
import { median } from "./report.ts";

export interface LoadJob {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  runs: number;
  method?: "GET" | "POST";
  body?: string;
  /** Requests per second from all connections together (open loop); closed loop when absent. */
  rate?: number;
}

/** What the load process measured in one run. */
export interface RunResult {
  seconds: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

/** One run plus the server's CPU time over it. */
export interface MeasuredRun extends RunResult {
  /** All answered requests per second. */
  rps: number;
  /** 2xx answers per second: the throughput that counts. */
  okRps: number;
  cpuMs: number;
  cpuUsPerRequest: number;
  /** The server's main (JavaScript) thread alone: what one core sustains, whatever the pool does. */
  mainCpuUsPerRequest: number;
}

const WORKER = fileURLToPath(new URL("./load-worker.ts", import.meta.url));

/**
 * Runs `job` from a separate load process against the server `serverPid`, reading that PID's CPU
 * time just before and just after each measured run (summed over the PIDs when given several: a
 * server split over processes, and its front).
 */
export async function runLoad(
  job: LoadJob,
  serverPid: number | number[],
  ticksPerSecond: number,
): Promise<MeasuredRun[]> {
  const worker = startChild(NODE, [WORKER], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const limitMs = (job.warmupSeconds + job.runs * (job.durationSeconds + 5) + 30) * 1000;
  try {
    return await Promise.race([
      drive(worker.process, job, serverPid, ticksPerSecond),
      worker.exited.then((code) => {
        throw new Error(`load process exited (${code}) early:\n${worker.output()}`);
      }),
      timeout(limitMs, `load against ${job.url} took over ${limitMs} ms`),
    ]);
  } finally {
    await stopChild(worker, 2000);
  }
}

function drive(
  proc: ChildProcess,
  job: LoadJob,
  serverPid: number | number[],
  ticksPerSecond: number,
): Promise<MeasuredRun[]> {
  const pids = Array.isArray(serverPid) ? serverPid : [serverPid];
  const ticks = () => pids.reduce((sum, pid) => sum + cpuTicks(pid), 0);
  const mainTicks = () => pids.reduce((sum, pid) => sum + mainThreadCpuTicks(pid), 0);
  return new Promise((resolve, reject) => {
    const runs: MeasuredRun[] = [];
    let ticksBefore = 0;
    let mainTicksBefore = 0;
    proc.on("message", (raw: unknown) => {
      const msg = raw as { type: string; result?: RunResult };
      try {
        if (msg.type === "ready") {
          ticksBefore = ticks();
          mainTicksBefore = mainTicks();
          proc.send("go");
        } else if (msg.type === "result" && msg.result) {
          const cpuMs = ((ticks() - ticksBefore) * 1000) / ticksPerSecond;
          const mainCpuMs = ((mainTicks() - mainTicksBefore) * 1000) / ticksPerSecond;
          const r = msg.result;
          runs.push({
            ...r,
            rps: r.requests / r.seconds,
            okRps: r.ok / r.seconds,
            cpuMs,
            cpuUsPerRequest: r.requests > 0 ? (cpuMs * 1000) / r.requests : Number.NaN,
            mainCpuUsPerRequest: r.requests > 0 ? (mainCpuMs * 1000) / r.requests : Number.NaN,
          });
        } else if (msg.type === "done") {
          resolve(runs);
        }
      } catch (e) {
        reject(e);
      }
    });
    proc.send(job);
  });
}

/** The median of each figure across runs, taken one by one; error and status counts are summed. */
export function medianRun(runs: MeasuredRun[]): MeasuredRun {
  if (runs.length === 0) throw new Error("no runs to summarise");
  const med = (pick: (r: MeasuredRun) => number) => median(runs.map(pick));
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  return {
    seconds: med((r) => r.seconds),
    requests: med((r) => r.requests),
    ok: med((r) => r.ok),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    timeouts: runs.reduce((s, r) => s + r.timeouts, 0),
    statuses,
    p50Ms: med((r) => r.p50Ms),
    p99Ms: med((r) => r.p99Ms),
    rps: med((r) => r.rps),
    okRps: med((r) => r.okRps),
    cpuMs: med((r) => r.cpuMs),
    cpuUsPerRequest: med((r) => r.cpuUsPerRequest),
    mainCpuUsPerRequest: med((r) => r.mainCpuUsPerRequest),
  };
}
