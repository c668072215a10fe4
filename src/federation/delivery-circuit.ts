import type { KvKey, KvStore } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { getLogger } from "@logtape/logtape";

const logger = getLogger(["gannet", "federation", "circuit"]);

/**
 * Settings of the per-inbox delivery circuit (docs/federation.md). Mastodon keeps one circuit per
 * inbox URL too (10 failures, then a 60 s cool-off); its cool-off is shortened here so that a
 * peer back from a short outage gets its posts within a minute.
 */
export const CIRCUIT = {
  /** Failed deliveries in a row to one inbox (unreachable or 5xx) that open its circuit. */
  failureThreshold: 10,
  /** How long an open circuit holds deliveries before one of them probes the inbox. */
  coolOffMs: 30_000,
  /** Held deliveries arrive spread over this much after the cool-off, so the probe goes first. */
  spreadMs: 5_000,
  /**
   * A probe holds the others this long at most: a delivery gives up after 10 s (the guarded
   * client's time-out), and a probe still running later (its worker died) no longer counts.
   */
  probeMs: 12_000,
  /** A delivery held longer waits longer between checks (a quarter of its time held), up to this. */
  maxWaitMs: 30 * 60_000,
  /** A delivery held this long is dropped, as Fedify's own circuit drops its held activities. */
  heldTtlMs: 7 * 86_400_000,
  /** A circuit not touched for this long is forgotten (a failure count is then stale). */
  stateTtlMs: 86_400_000,
};

interface CircuitState {
  /** Failed deliveries in a row. */
  failures: number;
  /** Open until then (ms): deliveries are held. */
  openUntil?: number;
  /** A probe is in flight until then at the latest. */
  probeUntil?: number;
}

export type CircuitDecision =
  | { type: "send"; state: CircuitState | undefined }
  | { type: "hold"; runAt: number }
  | { type: "drop" };

const setOptions = { ttl: Temporal.Duration.from({ milliseconds: CIRCUIT.stateTtlMs }) };

/**
 * Which inboxes Gannet stops sending to for a while, in place of Fedify's circuit, which holds a
 * whole host: a hostile actor whose inbox is another server's failing path would then hold that
 * server's mail. Here each inbox URL has its own count; the state lives in the KV store (shared
 * by every worker, changed by compare-and-swap). Held deliveries are queued again for when the
 * circuit may close, never polled.
 */
export class DeliveryCircuit {
  readonly #kv: KvStore;
  readonly #now: () => number;

  constructor(kv: KvStore, now: () => number = Date.now) {
    this.#kv = kv;
    this.#now = now;
  }

  #key(inbox: string): KvKey {
    return ["gannet", "deliveryCircuit", inbox];
  }

  #cas(inbox: string, old: CircuitState | undefined, next: CircuitState | undefined): Promise<boolean> {
    const cas = this.#kv.cas;
    if (!cas) throw new Error("the KV store has no compare-and-swap");
    return cas.call(this.#kv, this.#key(inbox), old, next, next === undefined ? undefined : setOptions);
  }

  /** When a held delivery looks again: after `from`, later the longer it has been held. */
  #heldUntil(from: number, heldSince: number | undefined): number {
    const now = this.#now();
    const heldFor = heldSince === undefined ? 0 : now - heldSince;
    return Math.max(from, now) + Math.min(heldFor / 4, CIRCUIT.maxWaitMs) + Math.random() * CIRCUIT.spreadMs;
  }

  /** Whether a delivery to `inbox` goes now; `heldSince` is when it was first held, if it was. */
  async before(inbox: string, heldSince?: number): Promise<CircuitDecision> {
    const now = this.#now();
    if (heldSince !== undefined && now - heldSince > CIRCUIT.heldTtlMs) return { type: "drop" };
    for (let attempt = 0; attempt < 3; attempt++) {
      const state = await this.#kv.get<CircuitState>(this.#key(inbox));
      if (state?.openUntil === undefined) return { type: "send", state };
      if (now < state.openUntil) return { type: "hold", runAt: this.#heldUntil(state.openUntil, heldSince) };
      // Another delivery is probing: look again once it must be done (not every second while
      // a probe to a silent peer waits for its time-out).
      if (state.probeUntil !== undefined && now < state.probeUntil) {
        return { type: "hold", runAt: this.#heldUntil(state.probeUntil, heldSince) };
      }
      const probing = { ...state, probeUntil: now + CIRCUIT.probeMs };
      if (await this.#cas(inbox, state, probing)) return { type: "send", state: probing };
    }
    return { type: "hold", runAt: this.#heldUntil(now + 1000, heldSince) };
  }

  /** The inbox answered (2xx, or 4xx: reachable): its circuit closes. */
  async reached(inbox: string, state: CircuitState | undefined): Promise<void> {
    // Nothing recorded when the delivery started: one read saved on every delivery that works.
    if (state === undefined) return;
    await this.#kv.delete(this.#key(inbox));
    if (state.openUntil !== undefined) logger.info("Delivery circuit of {inbox} closed: it answers again", { inbox });
  }

  /** The inbox could not be reached, or answered 5xx. */
  async failed(inbox: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const state = await this.#kv.get<CircuitState>(this.#key(inbox));
      const failures = (state?.failures ?? 0) + 1;
      // Already open and nobody probing: a delivery that started before it opened.
      if (state?.openUntil !== undefined && state.probeUntil === undefined) return;
      const open = state?.probeUntil !== undefined || failures >= CIRCUIT.failureThreshold;
      const next: CircuitState = open ? { failures, openUntil: this.#now() + CIRCUIT.coolOffMs } : { failures };
      if (await this.#cas(inbox, state, next)) {
        if (open) {
          logger.info("Delivery circuit of {inbox} open after {failures} failures in a row; held {seconds} s", {
            inbox,
            failures,
            seconds: CIRCUIT.coolOffMs / 1000,
          });
        }
        return;
      }
    }
  }
}
