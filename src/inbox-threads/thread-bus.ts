import type { MessagePort } from "node:worker_threads";
import type { BusListener, BusMessage, EventBus, Subscription } from "../infra/bus/interface.ts";
import { LocalListeners, subscription } from "../infra/bus/local-listeners.ts";

/** What an inbox thread sends its main thread about the bus. */
export type BusToMain =
  | { kind: "publish"; channel: string; event: string; payload: unknown }
  | { kind: "subscribe"; channel: string }
  | { kind: "unsubscribe"; channel: string }
  | { kind: "listened"; id: number; channels: readonly string[] };

/** What the main thread sends an inbox thread about the bus. */
export type BusToThread =
  | { kind: "deliver"; message: BusMessage }
  | { kind: "subscribed"; channel: string }
  | { kind: "listened"; id: number; channels: string[] };

/**
 * The event bus of an inbox thread when the main thread's is in-process (SQLite,
 * infra/bus/memory.ts): the main thread's bus is the one bus. What the thread publishes is
 * published there (and reaches the thread's own listeners back from there, in the order the main
 * thread delivers); a channel the thread listens to is listened to there on its behalf, so that
 * what the main thread publishes (an IP block's change, say) reaches it; `listened` asks there.
 */
export class ThreadEventBus implements EventBus {
  readonly #local = new LocalListeners();
  readonly #port: MessagePort;
  readonly #pending = new Map<number, (channels: Set<string>) => void>();
  readonly #ready = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  #next = 0;
  #closed = false;

  constructor(port: MessagePort) {
    this.#port = port;
  }

  async publish(channel: string, event: string, payload: unknown): Promise<void> {
    if (this.#closed) throw new Error("the event bus is closed");
    this.#port.postMessage({ kind: "publish", channel, event, payload } satisfies BusToMain);
  }

  subscribe(channel: string, listener: BusListener): Subscription {
    if (this.#closed) return subscription(() => {}, Promise.reject(new Error("the event bus is closed")));
    if (this.#local.add(channel, listener)) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.#ready.set(channel, { promise, resolve });
      this.#port.postMessage({ kind: "subscribe", channel } satisfies BusToMain);
    }
    const ready = this.#ready.get(channel)?.promise ?? Promise.resolve();
    return subscription(() => {
      if (this.#local.remove(channel, listener)) {
        this.#ready.get(channel)?.resolve();
        this.#ready.delete(channel);
        if (!this.#closed) this.#port.postMessage({ kind: "unsubscribe", channel } satisfies BusToMain);
      }
    }, ready);
  }

  listened(channels: readonly string[]): Promise<Set<string>> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#port.postMessage({ kind: "listened", id, channels } satisfies BusToMain);
    });
  }

  /** A message from the main thread (pool.ts). */
  received(msg: BusToThread): void {
    if (msg.kind === "deliver") this.#local.deliver(msg.message);
    else if (msg.kind === "subscribed") this.#ready.get(msg.channel)?.resolve();
    else {
      const resolve = this.#pending.get(msg.id);
      this.#pending.delete(msg.id);
      resolve?.(new Set(msg.channels));
    }
  }

  onConnection(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#local.clear();
    for (const resolve of this.#pending.values()) resolve(new Set());
    this.#pending.clear();
  }
}
