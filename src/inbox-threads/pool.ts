import { Worker } from "node:worker_threads";
import { getConfig, getLogger } from "@logtape/logtape";
import type { AppContext, ContextOptions } from "../context.ts";
import type { Subscription } from "../infra/bus/interface.ts";
import { freeIfHeldBy, newWriteLock, useWriteLock } from "../lib/sqlite-write-lock.ts";
import type { BusToMain, BusToThread } from "./thread-bus.ts";

const logger = getLogger(["gannet", "inbox-threads"]);

/** Defined (true) by the bundled build (scripts/bundle.ts). */
declare const __GANNET_BUNDLE__: boolean | undefined;

/**
 * The threads' entry module: beside this one in the sources (thread-main.ts) and in the build of
 * one file per module (thread-main.js); in the bundle, an entry point of its own at the build's
 * root, beside main.js (`inbox-thread.js`), while this code lies in a chunk under `chunks/`.
 */
function threadEntry(): URL {
  if (typeof __GANNET_BUNDLE__ !== "undefined") {
    return new URL(import.meta.url.includes("/chunks/") ? "../inbox-thread.js" : "./inbox-thread.js", import.meta.url);
  }
  return new URL(import.meta.url.endsWith(".ts") ? "./thread-main.ts" : "./thread-main.js", import.meta.url);
}

/** What the main thread sends an inbox thread. */
export type ToThread =
  | {
      kind: "request";
      id: number;
      url: string;
      method: string;
      headers: [string, string][];
      body: Uint8Array<ArrayBuffer>;
      ip: string;
    }
  | BusToThread
  | { kind: "close" };

type FromThread =
  | BusToMain
  | { kind: "ready" }
  | { kind: "closed" }
  | {
      kind: "response";
      id: number;
      status: number;
      headers: [string, string][];
      body: Uint8Array<ArrayBuffer>;
      signatureFailure?: boolean;
      error?: string;
    };

interface Thread {
  worker: Worker;
  inFlight: number;
  /** The main thread's subscriptions on the thread's behalf (thread-bus.ts). */
  subscriptions: Map<string, Subscription>;
}

/** The answer of an inbox thread, and whether it refused a signature (the failure throttle counts it). */
export interface ThreadAnswer {
  response: Response;
  signatureFailure: boolean;
}

/**
 * INBOX_THREADS worker threads that process inbox POSTs (thread-main.ts), each with its own
 * application context: the main thread reads the body and hands the request to the thread with
 * the fewest in flight. What a thread publishes on the bus reaches the main thread's listeners
 * (thread-bus.ts, on SQLite; Redis and PostgreSQL buses cross threads themselves); a thread's
 * answer makes the main thread read SQLite's data_version again and wakes its job runner, so
 * what the thread wrote is seen at once.
 */
export class InboxThreads {
  readonly #threads: Thread[] = [];
  readonly #pending = new Map<number, (a: ThreadAnswer) => void>();
  readonly #owners = new Map<number, Thread>();
  readonly #started: Promise<void>[] = [];
  readonly #ctx: AppContext;
  #next = 0;

  private constructor(ctx: AppContext) {
    this.#ctx = ctx;
  }

  /**
   * Starts `count` threads, not waiting for them: requests handed to a thread still starting wait
   * in its port. `options`: the context options of the main thread's database (tests' schema).
   */
  static start(ctx: AppContext, count: number, options: ContextOptions = {}): InboxThreads {
    const pool = new InboxThreads(ctx);
    const { actorKeys: _keys, ...cloneable } = options;
    const writeLock = newWriteLock();
    // The main thread's connection takes the same lock from now on (sqlite-write-lock.ts).
    if (ctx.dialect === "sqlite") useWriteLock(writeLock);
    for (let i = 0; i < count; i++) {
      const worker = new Worker(threadEntry(), {
        workerData: { config: ctx.config, options: cloneable, writeLock, logging: pool.#logging },
      });
      const thread: Thread = { worker, inFlight: 0, subscriptions: new Map() };
      pool.#threads.push(thread);
      let started = () => {};
      pool.#started.push(
        new Promise<void>((resolve) => {
          started = resolve;
        }),
      );
      worker.on("message", (msg: FromThread) => {
        if (msg.kind !== "ready") return pool.#onMessage(thread, msg);
        logger.info("Inbox thread {id} is ready", { id: worker.threadId });
        started();
      });
      // An error thrown in a thread ends it (its requests are answered 500: `#exited`), not the server.
      worker.on("error", (error) => logger.error("An inbox thread failed: {error}", { error }));
      const id = worker.threadId;
      worker.once("exit", () => {
        freeIfHeldBy(writeLock, id);
        started();
        pool.#exited(thread);
      });
    }
    return pool;
  }

  /**
   * Whether threads log to the console: when this process configured logging (the server's
   * start.ts does; tests that start a server in their own process configure none).
   */
  #logging = getConfig() !== null;

  /** A thread that exited answers 500 for what it held (the sender retries); the others go on. */
  #exited(thread: Thread): void {
    const i = this.#threads.indexOf(thread);
    if (i >= 0) this.#threads.splice(i, 1);
    for (const [id, owner] of this.#owners) {
      if (owner !== thread) continue;
      this.#owners.delete(id);
      const resolve = this.#pending.get(id);
      this.#pending.delete(id);
      resolve?.({ response: new Response("Internal server error.", { status: 500 }), signatureFailure: false });
    }
  }

  #onMessage(thread: Thread, msg: FromThread): void {
    const ctx = this.#ctx;
    if (msg.kind === "publish") {
      ctx.bus.publish(msg.channel, msg.event, msg.payload).catch(() => {});
    } else if (msg.kind === "subscribe") {
      const channel = msg.channel;
      const sub = ctx.bus.subscribe(channel, (message) =>
        thread.worker.postMessage({ kind: "deliver", message } satisfies ToThread),
      );
      thread.subscriptions.get(channel)?.();
      thread.subscriptions.set(channel, sub);
      sub.ready
        .then(() => thread.worker.postMessage({ kind: "subscribed", channel } satisfies ToThread))
        .catch(() => {});
    } else if (msg.kind === "unsubscribe") {
      thread.subscriptions.get(msg.channel)?.();
      thread.subscriptions.delete(msg.channel);
    } else if (msg.kind === "listened") {
      ctx.bus
        .listened(msg.channels)
        .catch(() => new Set(msg.channels))
        .then((set) => {
          thread.worker.postMessage({ kind: "listened", id: msg.id, channels: [...set] } satisfies ToThread);
        });
    } else if (msg.kind === "response") {
      thread.inFlight--;
      ctx.database.sawOtherWriter();
      (ctx.queue as { wake?: () => void }).wake?.();
      const resolve = this.#pending.get(msg.id);
      this.#pending.delete(msg.id);
      this.#owners.delete(msg.id);
      resolve?.({
        response: new Response(msg.status === 204 || msg.status === 304 ? null : msg.body, {
          status: msg.status,
          headers: msg.headers,
        }),
        signatureFailure: msg.signatureFailure === true,
      });
    }
  }

  /** Whether a thread is left (one that failed is not replaced: the main thread serves instead). */
  get available(): boolean {
    return this.#threads.length > 0;
  }

  /** Hands an inbox POST to a thread (`available`); its body is read here. */
  async handle(request: Request, ip: string): Promise<ThreadAnswer> {
    const body = new Uint8Array(await request.arrayBuffer());
    let thread = this.#threads[0];
    if (thread === undefined)
      return { response: new Response("Internal server error.", { status: 500 }), signatureFailure: false };
    for (const t of this.#threads) if (t.inFlight < thread.inFlight) thread = t;
    thread.inFlight++;
    const id = this.#next++;
    const answer = new Promise<ThreadAnswer>((resolve) => this.#pending.set(id, resolve));
    this.#owners.set(id, thread);
    thread.worker.postMessage(
      {
        kind: "request",
        id,
        url: request.url,
        method: request.method,
        headers: [...request.headers],
        body,
        ip,
      } satisfies ToThread,
      [body.buffer],
    );
    return answer;
  }

  /** Settles once every thread has started and loaded Fedify (or exited). */
  async ready(): Promise<void> {
    await Promise.all(this.#started);
  }

  /** CPU time of each thread so far (µs), for benchmarks. */
  cpuUsage(): number[] {
    return this.#threads.map((t) => {
      const u = (t.worker as unknown as { cpuUsage?: () => { user: number; system: number } }).cpuUsage?.();
      return u ? u.user + u.system : Number.NaN;
    });
  }

  /** Each thread closes its context (its connections), then ends; one that takes over 5 s is ended. */
  async close(): Promise<void> {
    for (const t of this.#threads) for (const sub of t.subscriptions.values()) sub();
    await Promise.all(
      this.#threads.map(async (t) => {
        const closed = new Promise<void>((resolve) => {
          t.worker.on("message", (msg: FromThread) => msg.kind === "closed" && resolve());
          t.worker.once("exit", () => resolve());
          setTimeout(resolve, 5000).unref();
        });
        t.worker.postMessage({ kind: "close" } satisfies ToThread);
        await closed;
        await t.worker.terminate();
      }),
    );
  }
}

const pools = new WeakMap<AppContext, InboxThreads>();
export const inboxThreadsOf = (ctx: AppContext) => pools.get(ctx);
export function setInboxThreads(ctx: AppContext, pool: InboxThreads): void {
  pools.set(ctx, pool);
}
