// The loads of bench/overload.ts: a closed loop (N connections, each sending its next request as
// soon as the last is answered) to find the sustainable rate, and an open loop at a fixed rate
// whatever the answers, each latency counted from the moment the request was due, recording
// every answer's status and whether a 503 carried Retry-After.
import { Agent, request } from "node:http";

export interface Answer {
  /** When the request was due (ms, performance clock); for the closed loop, when it was sent. */
  due: number;
  ms: number;
  /** 0: no answer (connection error or timeout). */
  status: number;
  retryAfter: boolean;
}

function ask(agent: Agent, url: string, headers: Record<string, string>, due: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          due,
          ms: performance.now() - due,
          status: res.statusCode ?? 0,
          retryAfter: res.headers["retry-after"] !== undefined,
        }),
      );
    });
    req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ due, ms: performance.now() - due, status: 0, retryAfter: false }));
    req.end();
  });
}

/** `connections` closed loops on `url` for `seconds`; every answer. */
export async function closedLoop(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<Answer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const answers: Answer[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) answers.push(await ask(agent, url, headers, performance.now()));
    }),
  );
  agent.destroy();
  return answers;
}

/** Asks `url` `rate` times a second for `seconds`, open loop; every answer once all are in. */
export async function openLoop(
  url: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
): Promise<Answer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const pending: Promise<Answer>[] = [];
  const started = performance.now();
  const total = Math.round(rate * seconds);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      // Every request due by now is sent, each stamped with its own due time.
      const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000));
      while (pending.length < due) pending.push(ask(agent, url, headers, started + (pending.length * 1000) / rate));
      if (pending.length >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  const answers = await Promise.all(pending);
  agent.destroy();
  return answers;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
}
