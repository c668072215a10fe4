// The loads of bench/overload.ts: a closed loop (N clients, each sending its next request as soon
// as the last is answered) to find the sustainable rate, and an open loop at a fixed rate whatever
// the answers, each latency counted from the moment the request was due, recording every answer's
// status and whether a 503 carried Retry-After.
//
// Two clients, each used in both loops: `connection`, each request on a connection of its own
// (`Connection: close`), as requests from many clients on the internet come; `proxy`, keep-alive
// connections, a new one opened whenever all are busy, as the reverse proxy of deploy/ (nginx,
// Caddy) keeps them to the server. The open loop once shared a keep-alive pool of 1,024 sockets:
// past 1,024 outstanding requests the rest waited in the load generator's own queue, which no
// server can see nor refuse, so that load measured the pool, not the server. `pool` keeps that
// client, for comparison.
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";

export type ClientKind = "connection" | "proxy" | "pool";

/**
 * The `proxy` client's bound on connections (a reverse proxy opens one whenever all are busy; past
 * this many at once, which only a server that queues without refusing reaches, the rest wait in
 * the client, as with `pool`).
 */
const PROXY_SOCKETS = 8192;

export interface Answer {
  /** When the request was due (ms, performance clock); for the closed loop, when it was sent. */
  due: number;
  /** How late the load generator sent it (ms after `due`: its own lag, not the server's). */
  sentLate: number;
  ms: number;
  /** 0: no answer (connection error or timeout). */
  status: number;
  retryAfter: boolean;
}

/** A client gives up on an answer after this long (the answer then counts as unanswered). */
export const CLIENT_TIMEOUT_MS = 30_000;

function ask(agent: Agent, url: string, headers: Record<string, string>, due: number): Promise<Answer> {
  const sentLate = performance.now() - due;
  return new Promise((resolve) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          due,
          sentLate,
          ms: performance.now() - due,
          status: res.statusCode ?? 0,
          retryAfter: res.headers["retry-after"] !== undefined,
        }),
      );
    });
    req.setTimeout(CLIENT_TIMEOUT_MS, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ due, sentLate, ms: performance.now() - due, status: 0, retryAfter: false }));
    req.end();
  });
}

/**
 * One request on a connection of its own, written and read by hand (a few times cheaper than
 * `http.request` without an agent, so a load generator on the same cores keeps to its schedule):
 * `Connection: close`, the answer read to the server's end of the connection.
 */
function askOnce(target: Target, due: number): Promise<Answer> {
  const sentLate = performance.now() - due;
  return new Promise((resolve) => {
    let head = "";
    let done = false;
    const finish = (status: number, retryAfter: boolean) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ due, sentLate, ms: performance.now() - due, status, retryAfter });
    };
    const socket = connect(target.port, target.host, () => socket.write(target.request));
    socket.setTimeout(CLIENT_TIMEOUT_MS, () => finish(0, false));
    socket.on("data", (chunk: Buffer) => {
      if (head.length < 4096 && !head.includes("\r\n\r\n")) head += chunk.toString("latin1", 0, 4096);
    });
    socket.on("end", () => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      const headers = head.slice(0, head.indexOf("\r\n\r\n") + 1);
      finish(status ? Number(status) : 0, /\r\nretry-after:/i.test(headers));
    });
    socket.on("error", () => finish(0, false));
  });
}

interface Target {
  host: string;
  port: number;
  request: Buffer;
}

function targetOf(url: string, headers: Record<string, string>): Target {
  const u = new URL(url);
  const lines = [`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return { host: u.hostname, port: Number(u.port || 80), request: Buffer.from(`${lines.join("\r\n")}\r\n\r\n`) };
}

/**
 * The asker of a load: a connection per request; keep-alive connections as a proxy keeps them
 * (idle ones reused, at most 256 kept idle as Node's agent does, a new one when all are busy); or
 * a keep-alive pool of `sockets`.
 */
function askerFor(
  kind: ClientKind,
  sockets: number,
  url: string,
  headers: Record<string, string>,
): { ask: (due: number) => Promise<Answer>; close: () => void } {
  if (kind === "connection") {
    const target = targetOf(url, headers);
    return { ask: (due) => askOnce(target, due), close: () => {} };
  }
  const agent = new Agent({ keepAlive: true, maxSockets: kind === "proxy" ? PROXY_SOCKETS : sockets });
  return { ask: (due) => ask(agent, url, headers, due), close: () => agent.destroy() };
}

/** `clients` closed loops on `url` for `seconds`; every answer. */
export async function closedLoop(
  url: string,
  headers: Record<string, string>,
  clients: number,
  seconds: number,
  kind: ClientKind = "connection",
): Promise<Answer[]> {
  const asker = askerFor(kind, clients, url, headers);
  const answers: Answer[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) answers.push(await asker.ask(performance.now()));
    }),
  );
  asker.close();
  return answers;
}

/** Asks `url` `rate` times a second for `seconds`, open loop; every answer once all are in. */
export async function openLoop(
  url: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
  kind: ClientKind = "connection",
): Promise<Answer[]> {
  const asker = askerFor(kind, 1024, url, headers);
  const pending: Promise<Answer>[] = [];
  const started = performance.now();
  const total = Math.round(rate * seconds);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      // Every request due by now is sent, each stamped with its own due time (the nth is due at
      // started + n / rate: n + 1 are due once that time has come).
      const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (pending.length < due) pending.push(asker.ask(started + (pending.length * 1000) / rate));
      if (pending.length >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  const answers = await Promise.all(pending);
  asker.close();
  return answers;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
}

/**
 * Connections the kernel dropped because a listen queue was full (TcpExt ListenOverflows in
 * /proc/net/netstat, for the whole network namespace): each is a SYN its client retries a second
 * or more later, a wait no server can see. NaN where the file is not there.
 */
export function listenOverflows(): number {
  try {
    const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
    const names = lines.find((l) => l.startsWith("TcpExt:"))?.split(" ") ?? [];
    const values = lines.filter((l) => l.startsWith("TcpExt:"))[1]?.split(" ") ?? [];
    const at = names.indexOf("ListenOverflows");
    return at > 0 ? Number(values[at]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
