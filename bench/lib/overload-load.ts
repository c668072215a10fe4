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
import { connect, type Socket } from "node:net";

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

/** Called once per request with its status (0: none) and whether a 503 carried Retry-After. */
type Done = (status: number, retryAfter: boolean) => void;

/** Parses one HTTP/1.1 answer from chunks, without allocating more than its head. */
class AnswerParser {
  private head = "";
  /** Body bytes still to come; -1 while the head is being read; -2: chunked (ends at 0 CRLF CRLF). */
  private remaining = -1;
  private tail = "";
  status = 0;
  retryAfter = false;
  /** The server said it closes the connection after this answer. */
  closes = false;

  reset(): void {
    this.head = "";
    this.remaining = -1;
    this.tail = "";
    this.status = 0;
    this.retryAfter = false;
    this.closes = false;
  }

  /** Feeds a chunk; true once the whole answer is in. */
  feed(chunk: Buffer): boolean {
    let from = 0;
    if (this.remaining === -1) {
      const before = this.head.length;
      this.head += chunk.toString("latin1", 0, Math.min(chunk.length, 8192));
      const end = this.head.indexOf("\r\n\r\n");
      if (end < 0) return false;
      const head = this.head.slice(0, end + 2).toLowerCase();
      this.status = Number(head.slice(9, 12)) || 0;
      this.retryAfter = head.includes("\r\nretry-after:");
      this.closes = head.includes("\r\nconnection: close");
      const length = /\r\ncontent-length: *(\d+)/.exec(head);
      if (length) this.remaining = Number(length[1]);
      else if (head.includes("\r\ntransfer-encoding: chunked")) this.remaining = -2;
      else this.remaining = this.status === 204 || this.status === 304 ? 0 : Number.POSITIVE_INFINITY;
      from = end + 4 - before;
    }
    if (this.remaining === -2) {
      // JSON bodies hold no raw CRLF: the last chunk's "0\r\n\r\n" after a CRLF ends the body.
      this.tail = (this.tail + chunk.toString("latin1", Math.max(from, chunk.length - 7))).slice(-7);
      return this.tail.endsWith("\r\n0\r\n\r\n");
    }
    this.remaining -= chunk.length - from;
    return this.remaining <= 0;
  }
}

interface Target {
  host: string;
  port: number;
  /** The request's bytes, built once. */
  request: Buffer;
}

function targetOf(url: string, headers: Record<string, string>, close: boolean): Target {
  const u = new URL(url);
  const lines = [`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`];
  if (close) lines.push("Connection: close");
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return { host: u.hostname, port: Number(u.port || 80), request: Buffer.from(`${lines.join("\r\n")}\r\n\r\n`) };
}

/** Sockets waiting for an answer and since when; swept once a second for CLIENT_TIMEOUT_MS. */
class Timeouts {
  private readonly waiting = new Map<Socket, number>();
  private readonly timer = setInterval(() => {
    const limit = performance.now() - CLIENT_TIMEOUT_MS;
    for (const [socket, since] of this.waiting) if (since < limit) socket.destroy(new Error("timeout"));
  }, 1000);
  add(socket: Socket): void {
    this.waiting.set(socket, performance.now());
  }
  delete(socket: Socket): void {
    this.waiting.delete(socket);
  }
  close(): void {
    clearInterval(this.timer);
  }
}

/**
 * One request on a connection of its own (`Connection: close`), written with pre-built bytes as
 * soon as the socket is created and read by hand to the server's end of the connection: a few
 * times cheaper than `http.request` without an agent, so that the generator keeps to its schedule
 * on the same cores.
 */
function oneShot(target: Target, timeouts: Timeouts, done: Done): void {
  const parser = new AnswerParser();
  let finished = false;
  const socket = connect(target.port, target.host);
  const finish = (status: number, retryAfter: boolean) => {
    if (finished) return;
    finished = true;
    timeouts.delete(socket);
    socket.destroy();
    done(status, retryAfter);
  };
  timeouts.add(socket);
  socket.write(target.request);
  socket.on("data", (chunk: Buffer) => {
    if (parser.feed(chunk)) finish(parser.status, parser.retryAfter);
  });
  // Read to the end: a head without a length ends with the connection.
  socket.on("end", () => finish(parser.status, parser.retryAfter));
  socket.on("close", () => finish(0, false));
  socket.on("error", () => finish(0, false));
}

/**
 * Keep-alive connections as a reverse proxy keeps them to its upstream: one request at a time on
 * each, an idle one reused (most recently used first), a new one opened when all are busy (up to
 * PROXY_SOCKETS; past that the request waits in the client). Raw sockets and pre-built bytes.
 */
class KeepAlivePool {
  private readonly idle: Conn[] = [];
  private readonly queue: Done[] = [];
  private open = 0;
  private readonly timeouts = new Timeouts();
  private closed = false;
  private readonly target: Target;
  private readonly max: number;

  constructor(target: Target, max: number) {
    this.target = target;
    this.max = max;
  }

  ask(done: Done): void {
    let conn = this.idle.pop();
    // One the server closed while it was idle (its keep-alive timeout) is gone.
    while (conn?.gone) conn = this.idle.pop();
    if (conn) conn.send(done);
    else if (this.open < this.max) {
      this.open++;
      new Conn(this, this.target, this.timeouts).send(done);
    } else this.queue.push(done);
  }

  /** A connection is free again (or gone, `conn` undefined). */
  released(conn: Conn | undefined): void {
    if (conn === undefined) this.open--;
    const next = this.queue.shift();
    if (next === undefined) {
      if (conn && !this.closed) this.idle.push(conn);
      else conn?.destroy();
      return;
    }
    if (conn) conn.send(next);
    else this.ask(next);
  }

  /** An idle connection closed: one fewer open (it leaves the idle list when popped). */
  forget(): void {
    this.open--;
  }

  close(): void {
    this.closed = true;
    this.timeouts.close();
    for (const conn of this.idle.splice(0)) conn.destroy();
  }
}

class Conn {
  private readonly socket: Socket;
  private readonly parser = new AnswerParser();
  private done: Done | undefined;
  /** Closed (by either side): never used again. */
  gone = false;
  private readonly pool: KeepAlivePool;
  private readonly target: Target;
  private readonly timeouts: Timeouts;

  constructor(pool: KeepAlivePool, target: Target, timeouts: Timeouts) {
    this.pool = pool;
    this.target = target;
    this.timeouts = timeouts;
    this.socket = connect(target.port, target.host);
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk: Buffer) => {
      if (this.done === undefined || !this.parser.feed(chunk)) return;
      const done = this.done;
      this.done = undefined;
      this.timeouts.delete(this.socket);
      done(this.parser.status, this.parser.retryAfter);
      if (this.parser.closes) {
        this.gone = true;
        this.socket.destroy();
        this.pool.released(undefined);
      } else this.pool.released(this);
    });
    const lost = () => this.lost();
    this.socket.on("end", lost);
    this.socket.on("close", lost);
    this.socket.on("error", lost);
  }

  send(done: Done): void {
    this.done = done;
    this.parser.reset();
    this.timeouts.add(this.socket);
    this.socket.write(this.target.request);
  }

  private lost(): void {
    if (this.gone) return;
    this.gone = true;
    this.timeouts.delete(this.socket);
    this.socket.destroy();
    const done = this.done;
    this.done = undefined;
    done?.(0, false);
    // An idle one is counted out when it is next popped from the idle list.
    if (done !== undefined) this.pool.released(undefined);
    else this.pool.forget();
  }

  destroy(): void {
    this.gone = true;
    this.socket.destroy();
  }
}

/** The former client: `http.request` on a keep-alive agent of at most `sockets` sockets. */
function viaAgent(agent: Agent, url: string, headers: Record<string, string>, done: Done): void {
  const req = request(url, { agent, headers }, (res) => {
    res.resume();
    res.on("end", () => done(res.statusCode ?? 0, res.headers["retry-after"] !== undefined));
  });
  req.setTimeout(CLIENT_TIMEOUT_MS, () => req.destroy(new Error("timeout")));
  req.on("error", () => done(0, false));
  req.end();
}

/**
 * The asker of a load: a connection per request; keep-alive connections as a proxy keeps them; or
 * a keep-alive pool of `sockets` (the former client).
 */
function askerFor(
  kind: ClientKind,
  sockets: number,
  url: string,
  headers: Record<string, string>,
): { ask: (done: Done) => void; close: () => void } {
  if (kind === "connection") {
    const target = targetOf(url, headers, true);
    const timeouts = new Timeouts();
    return { ask: (done) => oneShot(target, timeouts, done), close: () => timeouts.close() };
  }
  if (kind === "proxy") {
    const pool = new KeepAlivePool(targetOf(url, headers, false), PROXY_SOCKETS);
    return { ask: (done) => pool.ask(done), close: () => pool.close() };
  }
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  return { ask: (done) => viaAgent(agent, url, headers, done), close: () => agent.destroy() };
}

/** A load's answers, and the load generator's own CPU time per request (µs). */
export interface Load {
  answers: Answer[];
  generatorCpuUs: number;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** `clients` closed loops on `url` for `seconds`; every answer. */
export async function closedLoop(
  url: string,
  headers: Record<string, string>,
  clients: number,
  seconds: number,
  kind: ClientKind = "connection",
): Promise<Load> {
  const asker = askerFor(kind, clients, url, headers);
  const answers: Answer[] = [];
  const cpu0 = cpuMs();
  const end = performance.now() + seconds * 1000;
  await new Promise<void>((resolve) => {
    let running = clients;
    const next = () => {
      const sent = performance.now();
      if (sent >= end) {
        if (--running === 0) resolve();
        return;
      }
      asker.ask((status, retryAfter) => {
        answers.push({ due: sent, sentLate: 0, ms: performance.now() - sent, status, retryAfter });
        next();
      });
    };
    for (let i = 0; i < clients; i++) next();
  });
  const generatorCpuUs = ((cpuMs() - cpu0) * 1000) / Math.max(1, answers.length);
  asker.close();
  return { answers, generatorCpuUs };
}

/**
 * Asks `url` `rate` times a second for `seconds`, open loop; every answer once all are in. The nth
 * request is due at start + n / rate and sent at the first timer tick (every millisecond) at or
 * after that; its latency counts from its due time, and how late it was sent is recorded. Each
 * answer goes into typed arrays (no object, no promise per request until the end).
 */
export async function openLoop(
  url: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
  kind: ClientKind = "connection",
): Promise<Load> {
  const asker = askerFor(kind, 1024, url, headers);
  const total = Math.round(rate * seconds);
  const sentLate = new Float64Array(total);
  const latency = new Float64Array(total);
  const status = new Uint16Array(total);
  const retryAfter = new Uint8Array(total);
  let sent = 0;
  let answered = 0;
  const cpu0 = cpuMs();
  const started = performance.now();
  const dueOf = (i: number) => started + (i * 1000) / rate;
  await new Promise<void>((resolve) => {
    const finished = () => {
      if (++answered === total) resolve();
    };
    const send = (i: number) => {
      const due = dueOf(i);
      sentLate[i] = performance.now() - due;
      asker.ask((s, r) => {
        latency[i] = performance.now() - due;
        status[i] = s;
        retryAfter[i] = r ? 1 : 0;
        finished();
      });
    };
    const timer = setInterval(() => {
      // Every request due by now is sent (the nth is due at started + n / rate: n + 1 are due once
      // that time has come).
      const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (sent < due) send(sent++);
      if (sent >= total) clearInterval(timer);
    }, 1);
  });
  const generatorCpuUs = ((cpuMs() - cpu0) * 1000) / Math.max(1, total);
  asker.close();
  const answers: Answer[] = [];
  for (let i = 0; i < total; i++) {
    answers.push({
      due: dueOf(i),
      sentLate: sentLate[i],
      ms: latency[i],
      status: status[i],
      retryAfter: retryAfter[i] === 1,
    });
  }
  return { answers, generatorCpuUs };
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
