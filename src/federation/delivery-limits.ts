/**
 * How deliveries share the network (docs/federation.md, "Delivery"): their own pool of job slots
 * in every worker process (DELIVERY_CONCURRENCY, beside the queue's other jobs), at most
 * DELIVERY_CONCURRENCY_PER_SERVER of them to one server at a time, and Mastodon's retry schedule.
 * A server that hangs until the 10 s time-out then holds a few slots, never all of them.
 */

/**
 * Attempts of one delivery: the first and Mastodon's 16 retries (its DeliveryWorker's
 * `retry: 16`). With `deliveryBackoff` the last comes about two and a half days after the first.
 */
export const DELIVERY_ATTEMPTS = 17;

/**
 * The delay before the retry after failed attempt `attempt` (1 for the first), in ms: Mastodon's
 * DeliveryWorker schedule. Sidekiq numbers retries from 0 (`count`); the delay is Sidekiq's
 * default `count⁴ + 15 + rand(10) × (count + 1)` seconds, plus Mastodon's own jitter of up to
 * half of `count⁴`. So 15-24 s, 16-36 s, 31-61 s, ... and about 14 h 4 min (±25 %) before the last.
 */
export function deliveryBackoff(attempt: number, random: () => number = Math.random): number {
  const count = Math.max(0, attempt - 1);
  const p = count ** 4;
  const seconds = p + 15 + Math.floor(random() * 10) * (count + 1) + random() * 0.5 * p;
  return Math.round(seconds * 1000);
}

/** A delivery that finds its server at its limit waits this long (and up to as much again) in the queue. */
export const HOST_BUSY_DELAY_MS = 1_000;

/**
 * Deliveries in flight per server in this process. `tryAcquire` answers false at the limit: the
 * delivery then goes back to the queue for a moment (`HOST_BUSY_DELAY_MS`) instead of holding a
 * slot while it waits.
 */
export class HostLimiter {
  readonly #limit: number;
  readonly #inFlight = new Map<string, number>();

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  tryAcquire(host: string): boolean {
    const n = this.#inFlight.get(host) ?? 0;
    if (n >= this.#limit) return false;
    this.#inFlight.set(host, n + 1);
    return true;
  }

  release(host: string): void {
    const n = (this.#inFlight.get(host) ?? 1) - 1;
    if (n <= 0) this.#inFlight.delete(host);
    else this.#inFlight.set(host, n);
  }

  inFlight(host: string): number {
    return this.#inFlight.get(host) ?? 0;
  }
}
