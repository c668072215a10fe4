// The soak's open-loop load (bench/soak.ts): several workloads, each at a fixed rate whatever the
// answers, every request stamped with the moment it was due, so that a server that stalls cannot
// hide the queue it builds (the same rule as bench/lib/open-loop.ts, for many workloads with
// requests of their own, kept per minute for a half-hour run).
import { Agent, request } from "node:http";

/** What one request ended with: an HTTP status, or 0 with the error's kind. */
export interface Outcome {
  status: number;
  /** "timeout", or the socket error's code ("socket:ECONNRESET"). */
  error?: string;
  body?: Buffer;
}

/** One minute of one workload (by the requests' due times). */
export interface Minute {
  latencies: number[];
  /** Answers that were not 2xx and requests that got none, by status or error kind. */
  errors: Record<string, number>;
}

export interface Workload {
  name: string;
  /** Requests per second. */
  rate: number;
  /** Sends the `n`th request of this workload. */
  fire(n: number): Promise<Outcome>;
  minutes: Minute[];
}

export function workload(name: string, rate: number, fire: (n: number) => Promise<Outcome>): Workload {
  return { name, rate, fire, minutes: [] };
}

const TIMEOUT_MS = 30_000;

/** A keep-alive HTTP client for one workload (its own sockets). */
export function httpClient() {
  // Free sockets are dropped 2.5 s before the server's keep-alive timeout (5 s, announced in
  // `Keep-Alive`), not 1 s as by default: a request sent on a socket the server is closing fails
  // with ECONNRESET, a race of the client's, not an error of the server's.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, agentKeepAliveTimeoutBuffer: 2500 });
  return {
    call(method: string, url: string, headers: Record<string, string>, body?: string, keepBody = false) {
      return new Promise<Outcome>((resolve) => {
        const payload = body === undefined ? undefined : Buffer.from(body);
        const h = payload
          ? { ...headers, "Content-Type": "application/json", "Content-Length": String(payload.length) }
          : headers;
        let settled = false;
        // From the moment it is made, waiting for a socket included.
        const timer = setTimeout(() => {
          done({ status: 0, error: "timeout" });
          req.destroy();
        }, TIMEOUT_MS);
        const done = (o: Outcome) => {
          if (!settled) {
            settled = true;
            clearTimeout(timer);
            resolve(o);
          }
        };
        const req = request(url, { method, agent, headers: h }, (res) => {
          const chunks: Buffer[] = [];
          if (keepBody) res.on("data", (c: Buffer) => chunks.push(c));
          else res.resume();
          res.on("end", () =>
            done({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks) : undefined }),
          );
          res.on("error", (e: NodeJS.ErrnoException) => done({ status: 0, error: `socket:${e.code ?? e.message}` }));
        });
        req.on("error", (e: NodeJS.ErrnoException) => done({ status: 0, error: `socket:${e.code ?? e.message}` }));
        req.end(payload);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** Runs `workloads` from now until `stop()`; minute 0 begins at `start` (performance clock). */
export function runOpenLoop(workloads: Workload[], start: number) {
  const inFlight = new Map<Promise<void>, { w: Workload; due: number }>();
  const sent = workloads.map(() => 0);
  let running = true;
  let recording = true;
  const record = (w: Workload, due: number, o: Outcome) => {
    if (!recording) return;
    const m = Math.max(0, Math.floor((due - start) / 60_000));
    while (w.minutes.length <= m) w.minutes.push({ latencies: [], errors: {} });
    const minute = w.minutes[m] as Minute;
    minute.latencies.push(performance.now() - due);
    const ok = o.status >= 200 && o.status < 300;
    if (!ok) {
      const key = o.status === 0 ? (o.error ?? "socket") : String(o.status);
      minute.errors[key] = (minute.errors[key] ?? 0) + 1;
    }
  };
  const one = (w: Workload, n: number, due: number) => {
    const p = w
      .fire(n)
      .catch((): Outcome => ({ status: 0, error: "socket" }))
      .then((o) => record(w, due, o));
    inFlight.set(p, { w, due });
    void p.then(() => inFlight.delete(p));
  };
  const timer = setInterval(() => {
    const now = performance.now();
    workloads.forEach((w, i) => {
      // Every request due by now is sent, each stamped with its own due time: the nth is due at
      // start + n / rate, so n + 1 are due once that time has come (without the + 1 each request
      // went one interval late, and that interval counted in its latency: 500 ms at 2 posts/s).
      const dueCount = Math.floor(((now - start) * w.rate) / 1000) + 1;
      while (running && (sent[i] as number) < dueCount) {
        const n = sent[i] as number;
        sent[i] = n + 1;
        one(w, n, start + (n * 1000) / w.rate);
      }
    });
  }, 2);
  return {
    inFlight: () => inFlight.size,
    /**
     * Sends no more; waits for the answers still due (at most `graceMs`); a request still without
     * an answer then counts as a timeout.
     */
    async stop(graceMs = TIMEOUT_MS + 5000) {
      running = false;
      clearInterval(timer);
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(inFlight.keys()),
        new Promise((resolve) => {
          wait = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(wait);
      for (const { w, due } of inFlight.values()) record(w, due, { status: 0, error: "timeout" });
      recording = false;
    },
  };
}

export interface Summary {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
}

/** Latency percentiles and errors over minutes [from, to) of the given workloads. */
export function summarize(workloads: Workload[], from: number, to: number): Summary {
  const all: number[] = [];
  let errors = 0;
  for (const w of workloads) {
    for (const m of w.minutes.slice(from, to)) {
      for (const l of m.latencies) all.push(l);
      for (const n of Object.values(m.errors)) errors += n;
    }
  }
  all.sort((a, b) => a - b);
  const pct = (p: number) =>
    all.length === 0 ? Number.NaN : (all[Math.min(all.length - 1, Math.ceil(all.length * p) - 1)] as number);
  return { count: all.length, errors, p50: pct(0.5), p99: pct(0.99), max: all.at(-1) ?? Number.NaN };
}

/** Every error of a workload over the run, by kind. */
export function errorKinds(w: Workload): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of w.minutes) for (const [k, n] of Object.entries(m.errors)) out[k] = (out[k] ?? 0) + n;
  return out;
}
