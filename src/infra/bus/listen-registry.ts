/**
 * Where processes mark the channels they listen to (a Redis key or a PostgreSQL row per
 * channel, expiring unless refreshed), so publishers can skip the others. Times are the
 * store's own clock, so processes' clocks never meet.
 */
export interface MarkStore {
  /** Marks each channel (refreshing its expiry); answers each mark's age in ms (0 when new). */
  mark(channels: readonly string[], ttlMs: number): Promise<number[]>;
  /** The channels among these with an unexpired mark. */
  marked(channels: readonly string[]): Promise<Set<string>>;
}

export interface ListenRegistryOptions {
  /** How long a mark lives unless refreshed (Mastodon: 3 × its 6 min heartbeat; here 3 min). */
  markTtlMs?: number;
  /** How long "someone listens" is believed without asking again. */
  listenedCacheMs?: number;
  /**
   * How long "nobody listens" is believed without asking again; a new mark is this old before
   * its subscription is ready (see `ready`), so the belief never loses a message.
   */
  unlistenedCacheMs?: number;
  /** Cached answers kept at most. */
  cacheSize?: number;
}

interface Belief {
  listened: boolean;
  /** performance.now() until which it holds. */
  until: number;
}

/**
 * The publisher's side (which channels someone listens to, with a small cache) and the
 * subscriber's side (marking) of "publish only to channels someone listens to".
 *
 * Why no message is lost: a "nobody listens" answer is used for at most `unlistenedCacheMs`
 * after its question was sent, and a subscription is ready only once its channel's mark is at
 * least that old. A publisher using such an answer after the subscription became ready asked
 * after the mark existed, so its answer was "someone listens". "Someone listens" may be believed
 * longer: its only cost is a message published to nobody.
 */
export class ListenRegistry {
  readonly #store: MarkStore;
  readonly #isLocal: (channel: string) => boolean;
  readonly #markTtlMs: number;
  readonly #listenedMs: number;
  readonly #unlistenedMs: number;
  readonly #cacheSize: number;
  readonly #beliefs = new Map<string, Belief>();

  constructor(store: MarkStore, isLocal: (channel: string) => boolean, opts: ListenRegistryOptions = {}) {
    this.#store = store;
    this.#isLocal = isLocal;
    this.#markTtlMs = opts.markTtlMs ?? 180_000;
    this.#listenedMs = opts.listenedCacheMs ?? 5_000;
    this.#unlistenedMs = opts.unlistenedCacheMs ?? 100;
    this.#cacheSize = opts.cacheSize ?? 10_000;
  }

  /** How often a listening process should call `refresh` (a third of the marks' life). */
  get refreshMs(): number {
    return Math.floor(this.#markTtlMs / 3);
  }

  /** Marks a channel this process starts listening to; resolves when a subscription may be ready. */
  async markNew(channel: string): Promise<void> {
    const [age] = await this.#store.mark([channel], this.#markTtlMs);
    this.#believe(channel, true, performance.now() + this.#listenedMs);
    const wait = this.#unlistenedMs - (age ?? 0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }

  /** Keeps the marks of the channels this process listens to alive. */
  async refresh(channels: readonly string[]): Promise<void> {
    // Bounded batches: a streaming process may listen to tens of thousands of channels.
    for (let i = 0; i < channels.length; i += 500) {
      await this.#store.mark(channels.slice(i, i + 500), this.#markTtlMs);
    }
  }

  async listened(channels: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    const ask = new Set<string>();
    const now = performance.now();
    for (const c of channels) {
      if (this.#isLocal(c)) {
        out.add(c);
        continue;
      }
      const b = this.#beliefs.get(c);
      if (b && b.until > now) {
        if (b.listened) out.add(c);
      } else {
        ask.add(c);
      }
    }
    if (ask.size === 0) return out;
    // Measured from before the question: the answer may describe any moment after it.
    const asked = performance.now();
    const marked = await this.#store.marked([...ask]);
    for (const c of ask) {
      const yes = marked.has(c);
      if (yes) out.add(c);
      this.#believe(c, yes, asked + (yes ? this.#listenedMs : this.#unlistenedMs));
    }
    return out;
  }

  #believe(channel: string, listened: boolean, until: number): void {
    this.#beliefs.delete(channel);
    this.#beliefs.set(channel, { listened, until });
    // Oldest first (insertion order): drop beyond the bound.
    while (this.#beliefs.size > this.#cacheSize) {
      const oldest = this.#beliefs.keys().next().value as string;
      this.#beliefs.delete(oldest);
    }
  }
}
