// An open-loop load on one URL for the benchmarks that measure a page's latency while a
// background task runs (bench/domain-purge.ts, bench/lib/trends.ts): requests are sent at a fixed
// rate whatever the answers, and each latency counts from the moment the request was due, so a
// server that stalls cannot hide the queue it builds.
import { Agent, request } from "node:http";

export interface Sample {
  /** When the request was due (ms, performance clock). */
  due: number;
  ms: number;
  /** The answer's status; 0 for a connection error or a timeout. */
  status: number;
}

/** Asks `url` `rate` times a second, open loop, until `stop()`. */
export function openLoop(url: string, headers: Record<string, string>, rate: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let sent = 0;
  let running = true;
  const one = (due: number) => {
    const p = new Promise<void>((resolve) => {
      const req = request(url, { agent, headers }, (res) => {
        res.resume();
        res.on("end", () => {
          samples.push({ due, ms: performance.now() - due, status: res.statusCode ?? 0 });
          resolve();
        });
      });
      req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
      req.on("error", () => {
        samples.push({ due, ms: performance.now() - due, status: 0 });
        resolve();
      });
      req.end();
    });
    inFlight.add(p);
    void p.then(() => inFlight.delete(p));
  };
  const timer = setInterval(() => {
    // Every request due by now is sent, each stamped with its own due time (the nth is due at
    // started + n / rate: n + 1 are due once that time has come).
    const dueCount = Math.floor(((performance.now() - started) * rate) / 1000) + 1;
    while (running && sent < dueCount) one(started + (sent++ * 1000) / rate);
  }, 2);
  return {
    samples,
    async stop() {
      running = false;
      clearInterval(timer);
      await Promise.all(inFlight);
      agent.destroy();
    },
  };
}

export function stats(samples: Sample[], from: number, to: number) {
  const inside = samples.filter((s) => s.due >= from && s.due < to);
  const sorted = inside.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
  const failures: Record<string, number> = {};
  for (const s of inside) if (s.status !== 200) failures[s.status] = (failures[s.status] ?? 0) + 1;
  return {
    count: inside.length,
    failed: inside.filter((s) => s.status !== 200).length,
    failures: Object.entries(failures)
      .map(([code, n]) => `${n} × ${code === "0" ? "no answer" : code}`)
      .join(", "),
    p50: pct(0.5) as number,
    p99: pct(0.99) as number,
    max: (sorted.at(-1) ?? Number.NaN) as number,
  };
}
