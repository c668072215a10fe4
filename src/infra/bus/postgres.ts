import { createHash, randomUUID } from "node:crypto";
import { getLogger } from "@logtape/logtape";
import type pg from "pg";
import type { BusRepository } from "../../db/repositories/bus.ts";
import type { BusMessage } from "./interface.ts";
import type { ListenRegistryOptions, MarkStore } from "./listen-registry.ts";
import { type BusTransport, RemoteEventBus } from "./remote.ts";

const logger = getLogger(["gannet", "bus"]);

/**
 * PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more; a message larger than this is
 * stored in `bus_payloads` and its id sent instead (each listening process reads it once).
 */
const NOTIFY_LIMIT = 7900;
/** Stored payloads outlive any listener's read of them by far. */
const STORED_FOR_MS = 5 * 60_000;

/** What a NOTIFY carries: the channel, and the event with its payload or the stored message's id. */
interface Wire {
  c: string;
  e?: string;
  p?: unknown;
  r?: string;
}

/**
 * A NOTIFY channel name for a bus channel: a valid, short identifier whatever the channel's
 * characters or length, and distinct per schema (channels are per database, and servers or
 * test runs may share one database in several schemas).
 */
export function pgChannelName(schema: string, channel: string): string {
  return `gannet_${createHash("sha256").update(`${schema}\0${channel}`).digest("hex").slice(0, 40)}`;
}

class PostgresMarks implements MarkStore {
  readonly #repo: BusRepository;
  #lastPurge = Date.now();
  constructor(repo: BusRepository) {
    this.#repo = repo;
  }
  async mark(channels: readonly string[], ttlMs: number): Promise<number[]> {
    // Listening processes mark every minute: a good moment to drop old marks and payloads.
    if (Date.now() - this.#lastPurge > STORED_FOR_MS) {
      this.#lastPurge = Date.now();
      await this.#repo.purge(STORED_FOR_MS);
    }
    return this.#repo.mark(channels, ttlMs);
  }
  marked(channels: readonly string[]): Promise<Set<string>> {
    return this.#repo.marked(channels);
  }
}

export interface PostgresBusOptions extends ListenRegistryOptions {
  /** Opens the listening connection (one per bus, outside the pool: LISTEN lives on a session). */
  connect: () => Promise<pg.Client>;
  repo: BusRepository;
  schema: string;
}

/**
 * LISTEN/NOTIFY on one connection of the bus's own, opened on the first subscription and opened
 * again (listening to every channel again) when it breaks. NOTIFY goes through the pool.
 */
class PostgresTransport implements BusTransport {
  readonly #opts: PostgresBusOptions;
  readonly #receive: (msg: BusMessage) => void;
  readonly #connection: (up: boolean) => void;
  /** Bus channel by NOTIFY channel, for what this process listens to. */
  readonly #names = new Map<string, string>();
  #client: Promise<pg.Client> | undefined;
  /** Messages are handled one after another, so a stored one keeps its place. */
  #inbox: Promise<void> = Promise.resolve();
  #lastPurge = 0;
  #closed = false;

  constructor(opts: PostgresBusOptions, receive: (msg: BusMessage) => void, connection: (up: boolean) => void) {
    this.#opts = opts;
    this.#receive = receive;
    this.#connection = connection;
  }

  #name(channel: string): string {
    return pgChannelName(this.#opts.schema, channel);
  }

  #open(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    const opening = (async () => {
      const client = await this.#opts.connect();
      client.on("notification", (n) => this.#onNotification(n.channel, n.payload));
      client.on("error", (e) => {
        logger.warn("The bus's LISTEN connection failed: {error}", { error: e });
        this.#lost(opening);
      });
      client.on("end", () => this.#lost(opening));
      return client;
    })();
    this.#client = opening;
    opening.catch(() => {
      if (this.#client === opening) this.#client = undefined;
    });
    return opening;
  }

  /** A broken connection: a new one listens to every channel again (messages in between are lost). */
  #lost(which: Promise<pg.Client>): void {
    if (this.#closed || this.#client !== which) return;
    this.#client = undefined;
    void which.then((c) => c.end().catch(() => {}));
    const names = [...this.#names.keys()];
    if (names.length === 0) return;
    this.#connection(false);
    const retry = async (delayMs: number) => {
      if (this.#closed) return;
      try {
        // A subscription made meanwhile may have opened the new connection: it listens to all.
        const client = await this.#open();
        for (const n of this.#names.keys()) await client.query(`LISTEN ${n}`);
        if (!this.#closed) this.#connection(true);
      } catch (e) {
        logger.warn("Could not listen again: {error}", { error: e });
        setTimeout(() => void retry(Math.min(delayMs * 2, 30_000)), delayMs).unref();
      }
    };
    setTimeout(() => void retry(1000), 100).unref();
  }

  #onNotification(pgChannel: string, text: string | undefined): void {
    const channel = this.#names.get(pgChannel);
    if (channel === undefined || text === undefined) return;
    this.#inbox = this.#inbox.then(async () => {
      try {
        let wire = JSON.parse(text) as Wire;
        if (wire.r !== undefined) {
          const body = await this.#opts.repo.getPayload(wire.r);
          if (body === undefined) {
            logger.warn("A stored bus message on {channel} was gone", { channel });
            return;
          }
          wire = JSON.parse(body) as Wire;
        }
        // Two channel names with the same hash prefix would be a 160-bit collision; checked all the same.
        if (wire.c !== channel || wire.e === undefined) return;
        this.#receive({ channel, event: wire.e, payload: wire.p });
      } catch (e) {
        logger.warn("Dropped a bus message on {channel}: {error}", { channel, error: e });
      }
    });
  }

  async listen(channel: string): Promise<void> {
    const name = this.#name(channel);
    this.#names.set(name, channel);
    const client = await this.#open();
    await client.query(`LISTEN ${name}`);
  }

  async unlisten(channel: string): Promise<void> {
    const name = this.#name(channel);
    this.#names.delete(name);
    const client = await this.#client;
    await client?.query(`UNLISTEN ${name}`);
  }

  async send(msg: BusMessage): Promise<void> {
    const wire: Wire = { c: msg.channel, e: msg.event, p: msg.payload };
    let text = JSON.stringify(wire);
    if (Buffer.byteLength(text) > NOTIFY_LIMIT) {
      const id = randomUUID();
      await this.#opts.repo.insertPayload(id, text);
      text = JSON.stringify({ c: msg.channel, r: id } satisfies Wire);
      if (Buffer.byteLength(text) > NOTIFY_LIMIT) throw new Error("bus channel name too long");
      await this.#purgeNowAndThen();
    }
    await this.#opts.repo.notify(this.#name(msg.channel), text);
  }

  async #purgeNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastPurge < 60_000) return;
    this.#lastPurge = now;
    await this.#opts.repo.purge(STORED_FOR_MS);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#names.clear();
    const client = this.#client;
    this.#client = undefined;
    await (await client?.catch(() => undefined))?.end().catch(() => {});
  }
}

/**
 * PostgreSQL LISTEN/NOTIFY (the single-server profile with PostgreSQL and no Redis). Marks are
 * rows of `bus_listeners`; messages over NOTIFY's limit travel through `bus_payloads`.
 */
export class PostgresEventBus extends RemoteEventBus {
  constructor(opts: PostgresBusOptions) {
    super(
      (receive, connection) => new PostgresTransport(opts, receive, connection),
      new PostgresMarks(opts.repo),
      opts,
    );
  }
}
