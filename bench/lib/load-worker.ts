// The load generator, in its own process so it never shares a CPU budget with the harness.
// Protocol over the IPC channel: parent sends a LoadJob; the worker warms up, then for each run
// sends {type: "ready"}, waits for "go" (the parent reads the server's CPU time), runs, and sends
// {type: "result"}. Finally {type: "done"}.
import { createRequire } from "node:module";
import type { LoadJob, RunResult } from "./load.ts";

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  statusCodeStats: Record<string, { count: number }>;
  requests: { total: number };
}
interface Instance {
  on(event: "response", fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
type Autocannon = (opts: Record<string, unknown>, cb: (err: Error | null, res: AutocannonResult) => void) => Instance;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

// autocannon's own histogram keeps whole milliseconds; this one keeps 10 µs steps up to 10 s
// (the request timeout), for every response whatever its status.
const STEP_MS = 0.01;
const latencies = new Uint32Array(1_000_001);

function percentile(p: number): number {
  let total = 0;
  for (const n of latencies) total += n;
  const rank = Math.ceil(total * p);
  let seen = 0;
  for (let i = 0; i < latencies.length; i++) {
    seen += latencies[i];
    if (seen >= rank && seen > 0) return i * STEP_MS;
  }
  return Number.NaN;
}

function fire(job: LoadJob, seconds: number): Promise<AutocannonResult> {
  latencies.fill(0);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        headers: job.headers,
        connections: job.connections,
        duration: seconds,
        timeout: 10,
        method: job.method ?? "GET",
        body: job.body,
        overallRate: job.rate,
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client, _status, _bytes, ms) => {
      latencies[Math.min(Math.round(ms / STEP_MS), latencies.length - 1)]++;
    });
  });
}

function send(msg: unknown): Promise<void> {
  return new Promise((resolve, reject) => process.send?.(msg, (e: Error | null) => (e ? reject(e) : resolve())));
}

function nextMessage(): Promise<unknown> {
  return new Promise((resolve) => process.once("message", resolve));
}

// The harness gone (even killed outright): stop loading the machine.
process.once("disconnect", () => process.exit(0));

const job = (await nextMessage()) as LoadJob;
if (job.warmupSeconds > 0) await fire(job, job.warmupSeconds);
for (let run = 0; run < job.runs; run++) {
  await send({ type: "ready" });
  await nextMessage();
  const r = await fire(job, job.durationSeconds);
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) statuses[code] = count;
  const result: RunResult = {
    seconds: r.duration,
    requests: r.requests.total,
    ok: r["2xx"],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
  };
  await send({ type: "result", result });
}
process.removeAllListeners("disconnect");
await send({ type: "done" });
process.disconnect();
