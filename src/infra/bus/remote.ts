import { getLogger } from "@logtape/logtape";
import type { BusListener, BusMessage, EventBus, Subscription } from "./interface.ts";
import { ListenRegistry, type ListenRegistryOptions, type MarkStore } from "./listen-registry.ts";
import { LocalListeners, subscription } from "./local-listeners.ts";

const logger = getLogger(["gannet", "bus"]);

/**
 * How a cross-process bus moves messages (Redis pub/sub, PostgreSQL LISTEN/NOTIFY). Its maker is
 * given where to deliver messages and whom to tell when the listening connection is lost
 * (`false`) and when, listening to every channel again, it is back (`true`).
 */
export interface BusTransport {
  /** Starts receiving a channel's messages; resolves once the server has it. */
  listen(channel: string): Promise<void>;
  unlisten(channel: string): Promise<void>;
  send(msg: BusMessage): Promise<void>;
  close(): Promise<void>;
}

/**
 * The part shared by the cross-process buses: each channel is listened to once per process
 * whatever its number of local listeners, marked as listened (`ListenRegistry`) before its
 * subscriptions are ready, and its marks refreshed while listened; messages to channels nobody
 * marked are not sent.
 */
export class RemoteEventBus implements EventBus {
  readonly #local = new LocalListeners();
  readonly #registry: ListenRegistry;
  readonly #transport: BusTransport;
  /** The activation (mark and listen) of each channel with listeners here. */
  readonly #active = new Map<string, Promise<void>>();
  readonly #timer: NodeJS.Timeout;
  readonly #connectionListeners = new Set<(up: boolean) => void>();
  #closed = false;

  constructor(
    transport: (receive: (msg: BusMessage) => void, connection: (up: boolean) => void) => BusTransport,
    marks: MarkStore,
    opts: ListenRegistryOptions = {},
  ) {
    this.#transport = transport(
      (msg) => this.#local.deliver(msg),
      (up) => {
        if (this.#closed) return;
        for (const l of [...this.#connectionListeners]) {
          try {
            l(up);
          } catch (e) {
            logger.error("A bus connection listener failed: {error}", { error: e });
          }
        }
      },
    );
    this.#registry = new ListenRegistry(marks, (c) => this.#local.has(c), opts);
    this.#timer = setInterval(() => void this.#refresh(), this.#registry.refreshMs);
    this.#timer.unref();
  }

  async publish(channel: string, event: string, payload: unknown): Promise<void> {
    if (this.#closed) throw new Error("the event bus is closed");
    if (!(await this.#registry.listened([channel])).has(channel)) return;
    await this.#transport.send({ channel, event, payload });
  }

  subscribe(channel: string, listener: BusListener): Subscription {
    if (this.#closed) return subscription(() => {}, Promise.reject(new Error("the event bus is closed")));
    let ready: Promise<void>;
    if (this.#local.add(channel, listener)) {
      ready = this.#activate(channel);
      this.#active.set(channel, ready);
    } else {
      ready = this.#active.get(channel) ?? Promise.resolve();
    }
    let ended = false;
    const unsubscribe = () => {
      if (ended) return;
      ended = true;
      if (this.#local.remove(channel, listener)) {
        this.#active.delete(channel);
        // Commands on the listening connection run in order: a later listen wins.
        if (!this.#closed)
          this.#transport
            .unlisten(channel)
            .catch((e) => logger.warn("unlisten {channel}: {error}", { channel, error: e }));
      }
    };
    return subscription(
      unsubscribe,
      ready.catch((e) => {
        unsubscribe();
        throw e;
      }),
    );
  }

  listened(channels: readonly string[]): Promise<Set<string>> {
    return this.#registry.listened(channels);
  }

  onConnection(listener: (up: boolean) => void): () => void {
    this.#connectionListeners.add(listener);
    return () => void this.#connectionListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#connectionListeners.clear();
    this.#closed = true;
    clearInterval(this.#timer);
    this.#local.clear();
    this.#active.clear();
    await this.#transport.close();
  }

  async #activate(channel: string): Promise<void> {
    await Promise.all([this.#registry.markNew(channel), this.#transport.listen(channel)]);
  }

  async #refresh(): Promise<void> {
    try {
      await this.#registry.refresh(this.#local.channels());
    } catch (e) {
      // The next refresh tries again; marks outlive two missed refreshes.
      logger.warn("Could not refresh the listened channels: {error}", { error: e });
    }
  }
}
