import type { BusListener, EventBus, Subscription } from "./interface.ts";
import { LocalListeners, subscription } from "./local-listeners.ts";

/** In-process bus: the embedded profile's default (one process serves everything). */
export class MemoryEventBus implements EventBus {
  readonly #local = new LocalListeners();
  #closed = false;

  async publish(channel: string, event: string, payload: unknown): Promise<void> {
    if (this.#closed) throw new Error("the event bus is closed");
    this.#local.deliver({ channel, event, payload });
  }

  subscribe(channel: string, listener: BusListener): Subscription {
    if (this.#closed) return subscription(() => {}, Promise.reject(new Error("the event bus is closed")));
    this.#local.add(channel, listener);
    return subscription(() => void this.#local.remove(channel, listener), Promise.resolve());
  }

  async listened(channels: readonly string[]): Promise<Set<string>> {
    return new Set(channels.filter((c) => this.#local.has(c)));
  }

  onConnection(): () => void {
    // One process: nothing to lose.
    return () => {};
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#local.clear();
  }
}
