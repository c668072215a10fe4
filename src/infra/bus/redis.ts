import { getLogger } from "@logtape/logtape";
import type { Redis } from "ioredis";
import type { BusMessage } from "./interface.ts";
import type { ListenRegistryOptions, MarkStore } from "./listen-registry.ts";
import { type BusTransport, RemoteEventBus } from "./remote.ts";

const logger = getLogger(["gannet", "bus"]);

/**
 * Marks a channel as listened (KEYS[1], Mastodon's `subscribed:CHANNEL`) for ARGV[1] ms and
 * answers the mark's age in ms by Redis's clock. The value is when the mark was first made.
 */
const MARK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local since = tonumber(redis.call('GET', KEYS[1]))
if since then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return now - since
end
redis.call('SET', KEYS[1], now, 'PX', ARGV[1])
return 0
`;

class RedisMarks implements MarkStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async mark(channels: readonly string[], ttlMs: number): Promise<number[]> {
    if (channels.length === 0) return [];
    const pipe = this.#redis.pipeline();
    for (const c of channels) pipe.eval(MARK, 1, this.#prefix + c, ttlMs);
    const results = (await pipe.exec()) ?? [];
    return results.map(([err, age]) => {
      if (err) throw err;
      return Number(age);
    });
  }

  async marked(channels: readonly string[]): Promise<Set<string>> {
    if (channels.length === 0) return new Set();
    const values = await this.#redis.mget(channels.map((c) => this.#prefix + c));
    return new Set(channels.filter((_, i) => values[i] !== null));
  }
}

/** Redis pub/sub on a connection of its own (a subscribed connection takes no other commands). */
class RedisTransport implements BusTransport {
  readonly #commands: Redis;
  readonly #prefix: string;
  readonly #receive: (msg: BusMessage) => void;
  readonly #connection: (up: boolean) => void;
  #subscriber: Redis | undefined;
  #readyWait: Promise<void> | undefined;
  /** The subscriber connection was lost and is not yet subscribed again. */
  #down = false;

  constructor(commands: Redis, prefix: string, receive: (msg: BusMessage) => void, connection: (up: boolean) => void) {
    this.#commands = commands;
    this.#prefix = prefix;
    this.#receive = receive;
    this.#connection = connection;
  }

  /** Opened on first use: processes that only publish (workers) need no second connection. */
  #sub(): Redis {
    if (this.#subscriber) return this.#subscriber;
    // ioredis subscribes again to every channel after reconnecting. No CLIENT SETINFO: like the
    // ready check's INFO, a command other than (un)subscribe fails once the connection subscribes.
    const sub = this.#commands.duplicate({ maxRetriesPerRequest: null, disableClientInfo: true });
    sub.on("messageBuffer", (channel: Buffer, message: Buffer) => {
      const name = channel.toString("utf8");
      if (!name.startsWith(this.#prefix)) return;
      let body: { e: string; p: unknown };
      try {
        body = JSON.parse(message.toString("utf8"));
      } catch {
        logger.warn("Dropped a malformed message on {channel}", { channel: name });
        return;
      }
      this.#receive({ channel: name.slice(this.#prefix.length), event: body.e, payload: body.p });
    });
    sub.on("error", (e) => logger.warn("Redis subscriber connection: {error}", { error: e }));
    sub.on("close", () => {
      if (this.#subscriber !== sub || this.#down) return;
      this.#down = true;
      this.#connection(false);
    });
    sub.on("ready", () => {
      if (!this.#down) return;
      // ioredis subscribes again right after "ready": a PING sent after those commands answers
      // once they are in force.
      setImmediate(() => {
        sub.ping().then(
          () => {
            if (this.#subscriber !== sub || !this.#down || sub.status !== "ready") return;
            this.#down = false;
            this.#connection(true);
          },
          () => {},
        );
      });
    });
    this.#subscriber = sub;
    return sub;
  }

  async listen(channel: string): Promise<void> {
    const sub = this.#sub();
    // Subscribing before the connection is ready puts it in subscriber mode while ioredis's
    // ready check (INFO) is still to come: the check fails, the connection is dropped and comes
    // back subscribed to nothing, and every later message is lost. Wait for it to be ready.
    if (sub.status !== "ready") await this.#whenReady(sub);
    await sub.subscribe(this.#prefix + channel);
  }

  /** One wait shared by every subscription made meanwhile (not a listener each). */
  #whenReady(sub: Redis): Promise<void> {
    this.#readyWait ??= new Promise<void>((resolve) => {
      const done = () => {
        sub.off("ready", done);
        sub.off("end", done);
        this.#readyWait = undefined;
        resolve();
      };
      sub.on("ready", done);
      sub.on("end", done);
    });
    return this.#readyWait;
  }

  async unlisten(channel: string): Promise<void> {
    await this.#subscriber?.unsubscribe(this.#prefix + channel);
  }

  async send(msg: BusMessage): Promise<void> {
    await this.#commands.publish(this.#prefix + msg.channel, JSON.stringify({ e: msg.event, p: msg.payload }));
  }

  async close(): Promise<void> {
    const sub = this.#subscriber;
    this.#subscriber = undefined;
    sub?.disconnect();
  }
}

/**
 * Redis pub/sub (the scale-out profile). Channels are `NAMESPACE:CHANNEL` and marks
 * `NAMESPACE:subscribed:CHANNEL`, so servers sharing a Redis keep apart. `redis` is the
 * process's command connection; the subscriber connection is the bus's own.
 */
export class RedisEventBus extends RemoteEventBus {
  constructor(redis: Redis, namespace: string, opts: ListenRegistryOptions = {}) {
    super(
      (receive, connection) => new RedisTransport(redis, `${namespace}:`, receive, connection),
      new RedisMarks(redis, `${namespace}:subscribed:`),
      opts,
    );
  }
}
