import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { getLogger } from "@logtape/logtape";
import type { LoadSheddingConfig } from "../../config/index.ts";

const logger = getLogger(["gannet", "http"]);

/** How often the event loop's utilisation is sampled (ms). */
const TICK_MS = 10;
/**
 * Samples in a row with no request in flight, none admitted and a mostly idle loop, after which
 * sampling pauses until the next request (an idle server does not wake 100 times a second).
 */
const IDLE_TICKS = 20;
/** A sample counts as idle only if the loop was busy less than this share of it (0-1). */
const IDLE_UTILISATION = 0.5;
/** The time constant (ms) of the loop's busy share: what "sustained" means. */
const BUSY_WINDOW_MS = 500;
/** The busy share (0-1, the event loop's utilisation) at or past which the loop is saturated. */
const SATURATED = 0.9;
/** At most one log line about refusals per this many ms. */
const LOG_EVERY_MS = 10_000;
/** Past this many unread body bytes, a refusal closes the connection instead of draining it. */
const DRAIN_LIMIT = 64 * 1024;
/** How long a connection taken aside at accept may stay open without sending, or after its answer. */
const REFUSED_SOCKET_TIMEOUT_MS = 10_000;
/** The refusal's body: Mastodon's error shape. */
const REFUSAL_BODY = Buffer.from('{"error":"The server is overloaded, please retry later"}');
/** The health check's answer (static.ts's `/health`), given at a new connection refused whole. */
const HEALTH_ANSWER = Buffer.from(
  "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: 2\r\nConnection: close\r\n\r\nOK",
);
/** How a request line to `/health` begins (GET or HEAD; a query may follow). */
const HEALTH_REQUEST = /^(?:GET|HEAD) \/health[ ?]/;
/**
 * A request whose connection closes after its answer (`Connection: close`, or HTTP/1.0): one
 * refused at accept costs the connection nothing more. A kept-alive one (a proxy's) is handed to
 * the HTTP server and refused there, keeping the connection for the next request.
 */
const CLOSING = /^[^\r\n]* HTTP\/1\.0\r\n|\r\nconnection:[ \t]*close/i;
/** A WebSocket upgrade (any `Upgrade` header): handed to the HTTP server, never refused. */
const UPGRADE_HEADER = /\r\nupgrade:/i;

/**
 * Admission control in front of node:http's request listener, before @hono/node-server, routing,
 * authentication and the database (`guard`, installed by server.ts): while the server is
 * overloaded, a new request is answered 503 with `Retry-After` at once, from pre-built headers, and
 * a new connection that asks to close after its request is answered with pre-built bytes before
 * the HTTP parser sees it, so the requests the server does take are served in time (goodput stays
 * near capacity at twice the sustainable rate) instead of every answer coming late or timing out.
 * What a refusal costs decides how much is left for serving: docs/performance.md, Overload.
 * `admit` (app.ts's `handlerFor`) counts the requests in flight.
 *
 * Where the queue is: with SQLite, whose queries run on the loop, a request is handled in the turn
 * of the loop that reads it, and every turn reads every request that arrived during the last one
 * (connections wait in the kernel's accept queue meanwhile, and past its backlog their SYNs are
 * dropped and retried a second or more later, unseen). So the wait is the length of the turns:
 * under overload one long turn reads a flood, which makes the next turn long too. Overload is
 * told by two signals together:
 * - the loop is saturated: its utilisation (`performance.eventLoopUtilization`, sampled every
 *   10 ms, averaged with a 500 ms time constant, the current turn left out) is at least 90%;
 * - and the current turn has already run past LOAD_SHEDDING_LAG_MS since the sampling timer last
 *   ran, so the request now read has waited at least that long behind others.
 * The first keeps one slow request or a GC pause (a long turn in a loop that was idle around it)
 * from ever shedding, and a saturated loop whose turns stay short (a closed loop of clients at
 * capacity) from shedding either; the second bounds every turn to about LOAD_SHEDDING_LAG_MS of
 * served work, the rest of it being cheap refusals, so the queue cannot build up.
 * - With PostgreSQL, what waits on the pool does not hold the loop: requests in flight are
 *   bounded by count (LOAD_SHEDDING_MAX_IN_FLIGHT).
 *
 * `/health` is never refused (a load balancer or supervisor would otherwise take the server for
 * dead and restart it, losing what it serves), nor are WebSocket upgrades, which go to the HTTP
 * server's `upgrade` event, not its request listener: an open stream costs little until there is something to send, and a refused one
 * comes back at once. Inbox POSTs are refused like the rest: remote servers retry a 503 later,
 * which is what an overloaded server wants.
 */
export class LoadShedder {
  /** Requests whose answer is not ready yet. */
  inFlight = 0;
  /** Requests refused since the server started. */
  refused = 0;
  /** The event loop's utilisation, averaged over about BUSY_WINDOW_MS up to the last sample. */
  busy = 0;
  private readonly lagMs: number;
  private readonly maxInFlight: number;
  /** When the sampling timer last ran (performance clock). */
  private lastTick = performance.now();
  private elu = performance.eventLoopUtilization();
  private timer: NodeJS.Timeout | undefined;
  /** Requests admitted since the last sample, and samples in a row that found none. */
  private admittedSinceTick = 0;
  private idleTicks = 0;
  private stopped = false;
  private loggedAt = 0;
  private refusedAtLog = 0;

  constructor(config: LoadSheddingConfig) {
    this.lagMs = config.lagMs;
    this.maxInFlight = config.maxInFlight > 0 ? config.maxInFlight : Number.POSITIVE_INFINITY;
    this.headers[5] = String(config.retryAfterSeconds);
    this.closingHeaders[5] = this.headers[5];
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(this.tick, TICK_MS);
    this.timer.unref();
  }

  private readonly tick = (): void => {
    const now = performance.now();
    const elu = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(elu, this.elu);
    // Weighted by the time it covers: one turn of a second moves the average by 1 - e^-2.
    const weight = 1 - Math.exp(-(now - this.lastTick) / BUSY_WINDOW_MS);
    this.busy += (since.utilization - this.busy) * weight;
    this.elu = elu;
    this.lastTick = now;
    const idle = this.inFlight === 0 && this.admittedSinceTick === 0 && since.utilization < IDLE_UTILISATION;
    this.idleTicks = idle ? this.idleTicks + 1 : 0;
    this.admittedSinceTick = 0;
    // Idle: sampling pauses; the next request takes a sample first (wake), which averages in the
    // idle time since this one, so the loop reads as idle, as it was.
    if (this.idleTicks >= IDLE_TICKS || this.stopped) this.timer = undefined;
    else this.schedule();
  };

  /** Whether the loop is being sampled (false while the server idles). */
  get sampling(): boolean {
    return this.timer !== undefined;
  }

  /** Sampling resumes at a request that arrives while it is paused. */
  private wake(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.idleTicks = 0;
    this.tick();
  }

  /** Whether a request arriving now is to be refused. */
  overloaded(): boolean {
    this.wake();
    if (this.inFlight >= this.maxInFlight) return true;
    const turn = performance.now() - this.lastTick;
    if (turn <= this.lagMs) return false;
    // The current turn counts as busy too, so that a flood read in one long turn is shed within
    // it once that tips the average (from 68% busy, after about 600 ms); a turn of one slow
    // request in an idle loop never does (from 20% busy, not before 1.2 s).
    return this.busy + (1 - this.busy) * (1 - Math.exp(-turn / BUSY_WINDOW_MS)) >= SATURATED;
  }

  /**
   * Serves `request` with `serve`, counting it in flight until its answer is ready (a stream's body
   * may go on). The refusals come before, at the connection and at the request (`guard`).
   */
  admit<E>(
    request: Request,
    env: E,
    serve: (request: Request, env: E) => Response | Promise<Response>,
  ): Response | Promise<Response> {
    this.inFlight++;
    this.admittedSinceTick++;
    let answer: Response | Promise<Response>;
    try {
      answer = serve(request, env);
    } catch (e) {
      this.inFlight--;
      throw e;
    }
    if (answer instanceof Response) {
      this.inFlight--;
      return answer;
    }
    return answer.finally(this.done);
  }

  private readonly done = (): void => {
    this.inFlight--;
  };

  /**
   * Puts the refusals in front of `server`'s own listeners, before @hono/node-server builds a
   * Request and before routing, authentication and the database:
   * - each request (`request` event): refused with a pre-built 503 unless it is `/health`;
   * - each new connection accepted while overloaded: its first bytes are read; `/health` is
   *   answered here (as static.ts does); a whole request head asking to close the connection after
   *   its answer (a client with a connection per request), still while overloaded, is answered
   *   with a pre-built 503 and the connection closed, without the HTTP parser, request or response
   *   objects (about a third less CPU than the same 503 from node:http), and what the client still
   *   sends is read and dropped, so that the close does not reset the connection before it has
   *   read the answer. Anything else (a kept-alive connection, a WebSocket upgrade, a head not
   *   whole yet, the overload over) is handed to the HTTP server with its first bytes put back.
   */
  guard(server: Server): void {
    const onRequest = server.listeners("request") as RequestListener[];
    server.removeAllListeners("request");
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      if (this.overloaded() && !isHealth(req.url)) this.refuseRequest(req, res);
      else for (const listener of onRequest) listener.call(server, req, res);
    });
    const onConnection = server.listeners("connection") as ((socket: Socket) => void)[];
    server.removeAllListeners("connection");
    const handOver = (socket: Socket) => {
      for (const listener of onConnection) listener.call(server, socket);
    };
    server.on("connection", (socket: Socket) => {
      if (!this.overloaded()) return handOver(socket);
      // A client that sends nothing is not kept past that (the HTTP server's own timeouts start
      // once it has the connection).
      socket.setTimeout(REFUSED_SOCKET_TIMEOUT_MS, () => socket.destroy());
      // Until the HTTP server has it: a reset is no uncaught error, a close before any request
      // closes it here too (the server keeps connections half-open).
      const onEnd = () => socket.destroy();
      socket.on("error", drop);
      socket.once("end", onEnd);
      socket.once("data", (first: Buffer) => {
        socket.removeListener("end", onEnd);
        const head = first.toString("latin1", 0, Math.min(first.length, 4096));
        if (HEALTH_REQUEST.test(head)) {
          this.closeWith(socket, HEALTH_ANSWER);
        } else if (
          !head.includes("\r\n\r\n") ||
          !CLOSING.test(head) ||
          UPGRADE_HEADER.test(head) ||
          !this.overloaded()
        ) {
          socket.setTimeout(0);
          socket.removeListener("error", drop);
          socket.pause();
          handOver(socket);
          socket.unshift(first);
          socket.resume();
        } else {
          this.refused++;
          this.logRefusals();
          this.closeWith(socket, this.rawRefusal());
        }
      });
    });
  }

  /** Writes `answer` and closes, reading and dropping what the client still sends. */
  private closeWith(socket: Socket, answer: Buffer): void {
    socket.on("data", drop);
    socket.end(answer);
  }

  /** The 503 at a request: pre-built headers, never cached; the connection kept unless a large body is unread. */
  private refuseRequest(req: IncomingMessage, res: ServerResponse): void {
    this.refused++;
    this.logRefusals();
    const length = req.headers["content-length"];
    res.writeHead(503, length !== undefined && Number(length) > DRAIN_LIMIT ? this.closingHeaders : this.headers);
    res.end(REFUSAL_BODY);
  }

  /** Response headers of a refusal (browser clients can read it: the API's CORS allows any origin). */
  private readonly headers = [
    "Content-Type",
    "application/json; charset=utf-8",
    "Content-Length",
    String(REFUSAL_BODY.length),
    "Retry-After",
    "",
    "Cache-Control",
    "no-store",
    "Access-Control-Allow-Origin",
    "*",
  ];
  private readonly closingHeaders = [...this.headers, "Connection", "close"];
  private raw: Buffer | undefined;
  private rawDate = "";

  /** The whole 503 of a connection refused before parsing, rebuilt when the second changes. */
  private rawRefusal(): Buffer {
    const date = new Date().toUTCString();
    if (this.raw === undefined || date !== this.rawDate) {
      this.rawDate = date;
      const head = ["HTTP/1.1 503 Service Unavailable", `Date: ${date}`];
      for (let i = 0; i < this.closingHeaders.length; i += 2)
        head.push(`${this.closingHeaders[i]}: ${this.closingHeaders[i + 1]}`);
      this.raw = Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), REFUSAL_BODY]);
    }
    return this.raw;
  }

  private logRefusals(): void {
    const now = performance.now();
    if (now - this.loggedAt < LOG_EVERY_MS) return;
    logger.warn(
      `Overloaded: refusing requests with 503 (${this.refused - this.refusedAtLog} since the last report, ${this.inFlight} in flight, event loop ${(this.busy * 100).toFixed(0)}% busy)`,
    );
    this.loggedAt = now;
    this.refusedAtLog = this.refused;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function drop(): void {}

/** Whether a request's target (a path and query, as node:http gives it) is the health check. */
function isHealth(url: string | undefined): boolean {
  return url === "/health" || url?.startsWith("/health?") === true;
}
