/**
 * Failed inbox signatures counted per client IP, fail2ban-style: past `limit` failures within a
 * fixed window, that IP's inbox POSTs are refused with 429 for the rest of the window, before
 * anything of the request is read, parsed or verified. A forged signature costs a real
 * verification (an RSA verify, the digest, the parse); a flood of them from one address costs one
 * Map lookup each once throttled.
 *
 * Per process and in memory: the refusal must stay cheaper than what it saves, so no database or
 * Redis round trip; several processes each allow `limit`, which is still a bound. The map is
 * capped (`maxEntries`): past it the entry least recently started is dropped, so an attacker with
 * many addresses can at worst get one of its own addresses forgotten, never grow the heap.
 */
export interface FailureThrottleOptions {
  /** Failures allowed per window; 0 turns the throttle off. */
  limit: number;
  windowMs: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  started: number;
  failures: number;
}

export class FailureThrottle {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxEntries: number;
  readonly #now: () => number;
  // Insertion order is the order windows started in (a new window re-inserts), so the first key is the oldest.
  readonly #entries = new Map<string, Entry>();

  constructor(opts: FailureThrottleOptions) {
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
    this.maxEntries = opts.maxEntries ?? 100_000;
    this.#now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Seconds until `ip` may try again (the Retry-After), or 0 when it is not throttled. */
  retryAfter(ip: string): number {
    if (this.limit <= 0) return 0;
    const entry = this.#entries.get(ip);
    if (entry === undefined || entry.failures < this.limit) return 0;
    const left = entry.started + this.windowMs - this.#now();
    if (left <= 0) {
      this.#entries.delete(ip);
      return 0;
    }
    return Math.ceil(left / 1000);
  }

  /** Counts a failed signature from `ip`. */
  fail(ip: string): void {
    if (this.limit <= 0) return;
    const now = this.#now();
    const entry = this.#entries.get(ip);
    if (entry !== undefined && now - entry.started < this.windowMs) {
      entry.failures++;
      return;
    }
    if (entry !== undefined) this.#entries.delete(ip);
    else if (this.#entries.size >= this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.#entries.set(ip, { started: now, failures: 1 });
  }
}

/** Past this many unread bytes, closing the connection is cheaper than reading the body to its end (as precheck.ts). */
const DRAIN_LIMIT = 64 * 1024;

/** The 429 for a throttled IP, its body left unread; undefined when `ip` is not throttled. */
export function throttledRefusal(throttle: FailureThrottle, ip: string, request: Request): Response | undefined {
  const retryAfter = throttle.retryAfter(ip);
  if (retryAfter === 0) return undefined;
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Retry-After": String(retryAfter),
  };
  if (Number(request.headers.get("content-length") ?? Number.POSITIVE_INFINITY) > DRAIN_LIMIT) {
    headers.Connection = "close";
  }
  return new Response('{"error":"Too many requests"}', { status: 429, headers });
}
