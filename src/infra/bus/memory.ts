import type { BusListener, BusMessage, EventBus } from "./interface.ts";

/** In-process bus: the embedded profile's default. */
export class MemoryEventBus implements EventBus {
  readonly #listeners = new Map<string, Set<BusListener>>();

  async publish(channel: string, event: string, payload: unknown): Promise<void> {
    const set = this.#listeners.get(channel);
    if (!set) return;
    const msg: BusMessage = { channel, event, payload };
    for (const l of [...set]) l(msg);
  }

  subscribe(channel: string, listener: BusListener): () => void {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
    }
    set.add(listener);
    return () => {
      const s = this.#listeners.get(channel);
      if (!s) return;
      s.delete(listener);
      if (s.size === 0) this.#listeners.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
