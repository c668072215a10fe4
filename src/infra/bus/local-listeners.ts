import { getLogger } from "@logtape/logtape";
import type { BusListener, BusMessage } from "./interface.ts";

const logger = getLogger(["gannet", "bus"]);

/** The listeners of each channel in this process; one failing listener does not stop the others. */
export class LocalListeners {
  readonly #byChannel = new Map<string, Set<BusListener>>();

  /** Adds a listener; true when it is the channel's first. */
  add(channel: string, listener: BusListener): boolean {
    let set = this.#byChannel.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.#byChannel.set(channel, set);
    }
    set.add(listener);
    return first;
  }

  /** Removes a listener; true when the channel has none left (and was listened before). */
  remove(channel: string, listener: BusListener): boolean {
    const set = this.#byChannel.get(channel);
    if (!set?.delete(listener)) return false;
    if (set.size > 0) return false;
    this.#byChannel.delete(channel);
    return true;
  }

  has(channel: string): boolean {
    return this.#byChannel.has(channel);
  }

  channels(): string[] {
    return [...this.#byChannel.keys()];
  }

  deliver(msg: BusMessage): void {
    const set = this.#byChannel.get(msg.channel);
    if (!set) return;
    // A copy: a listener may unsubscribe (itself or another) while being called.
    for (const listener of [...set]) {
      try {
        listener(msg);
      } catch (e) {
        logger.error("A listener of {channel} failed: {error}", { channel: msg.channel, error: e });
      }
    }
  }

  clear(): void {
    this.#byChannel.clear();
  }
}

/** A subscription function with its `ready` promise. */
export function subscription(unsubscribe: () => void, ready: Promise<void>): (() => void) & { ready: Promise<void> } {
  // Nobody may await `ready` (the memory bus's callers often do not): never an unhandled rejection.
  ready.catch(() => {});
  return Object.assign(unsubscribe, { ready });
}
