import { getLogger } from "@logtape/logtape";
import type { LoadSheddingConfig } from "../../config/index.ts";
import { loggedPath } from "./request-log.ts";

const logger = getLogger(["gannet", "http"]);

/** How often the event loop's lag is sampled (ms). */
const TICK_MS = 10;
/** Consecutive late samples (each at least half the threshold late) that count as overload. */
const SUSTAINED_TICKS = 3;
/** At most one log line about refusals per this many ms. */
const LOG_EVERY_MS = 10_000;
/** Past this many unread body bytes, a refusal closes the connection instead of draining it. */
const DRAIN_LIMIT = 64 * 1024;

/**
 * Admission control before routing, authentication and the database (app.ts's `handlerFor`):
 * while the server is overloaded, a new request is answered 503 with `Retry-After` at once, for a
 * few microseconds of work, so the requests it does take are served in time (goodput stays near
 * capacity at twice the sustainable rate) instead of every answer coming late or timing out.
 *
 * Overload is told by two signals:
 * - the event loop's lag: a timer due every 10 ms notes how late it runs. The loop is overloaded
 *   when the last 3 samples were each at least half of LOAD_SHEDDING_LAG_MS late and the current
 *   turn has itself run past the threshold serving other requests: one slow request (a long
 *   export, a GC pause) makes one late sample and is never enough, nor is the process being kept
 *   off the CPU by others, while a queue that keeps growing makes every turn long.
 *   With SQLite, whose queries run on the loop, this is the queue: each turn of the loop handles
 *   every request that arrived during the last, so a long turn is a long wait.
 * - requests in flight (LOAD_SHEDDING_MAX_IN_FLIGHT): what waits on PostgreSQL's pool does not
 *   hold the loop, so it is bounded by count.
 *
 * `/health` is never refused (a load balancer or supervisor would otherwise take the server for
 * dead and restart it, losing what it serves), nor are WebSocket upgrades, which do not come
 * through here: an open stream costs little until there is something to send, and a refused one
 * comes back at once. Inbox POSTs are refused like the rest: remote servers retry a 503 later,
 * which is what an overloaded server wants.
 */
export class LoadShedder {
  /** Requests whose answer is not ready yet. */
  inFlight = 0;
  /** Requests refused since the server started. */
  refused = 0;
  private readonly lagMs: number;
  private readonly maxInFlight: number;
  private readonly retryAfter: string;
  private expected = performance.now() + TICK_MS;
  private lateTicks = 0;
  /** Requests admitted since the last sample (in this turn of the loop, or the ones since). */
  private admittedSinceTick = 0;
  private timer: NodeJS.Timeout | undefined;
  private loggedAt = 0;
  private refusedAtLog = 0;

  constructor(config: LoadSheddingConfig) {
    this.lagMs = config.lagMs;
    this.maxInFlight = config.maxInFlight > 0 ? config.maxInFlight : Number.POSITIVE_INFINITY;
    this.retryAfter = String(config.retryAfterSeconds);
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(this.tick, TICK_MS);
    this.timer.unref();
  }

  private readonly tick = (): void => {
    const now = performance.now();
    this.lateTicks = now - this.expected >= this.lagMs / 2 ? this.lateTicks + 1 : 0;
    this.expected = now + TICK_MS;
    this.admittedSinceTick = 0;
    this.schedule();
  };

  /** Whether a request arriving now is to be refused. */
  overloaded(): boolean {
    if (this.inFlight >= this.maxInFlight) return true;
    return (
      this.lateTicks >= SUSTAINED_TICKS && this.admittedSinceTick > 0 && performance.now() - this.expected > this.lagMs
    );
  }

  /** Serves `request` with `serve` unless the server is overloaded (then a 503), counting it in flight. */
  admit<E>(
    request: Request,
    env: E,
    serve: (request: Request, env: E) => Response | Promise<Response>,
  ): Response | Promise<Response> {
    if (this.overloaded() && loggedPath(request.url) !== "/health") return this.refusal(request);
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

  /** The 503 answer: Mastodon's error shape, `Retry-After`, never cached. */
  private refusal(request: Request): Response {
    this.refused++;
    const now = performance.now();
    if (now - this.loggedAt >= LOG_EVERY_MS) {
      logger.warn(
        `Overloaded: refusing requests with 503 (${this.refused - this.refusedAtLog} since the last report, ${this.inFlight} in flight)`,
      );
      this.loggedAt = now;
      this.refusedAtLog = this.refused;
    }
    const headers: Record<string, string> = {
      "Content-Type": "application/json; charset=utf-8",
      "Retry-After": this.retryAfter,
      "Cache-Control": "no-store",
    };
    // Browser clients can read the refusal (the API's CORS allows any origin).
    if (request.headers.has("origin")) headers["Access-Control-Allow-Origin"] = "*";
    const length = request.headers.get("content-length");
    if (length !== null && Number(length) > DRAIN_LIMIT) headers.Connection = "close";
    return new Response('{"error":"The server is overloaded, please retry later"}', { status: 503, headers });
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
