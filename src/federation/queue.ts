import type { Federation, MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import type { AppContext } from "../context.ts";
import type { JobInfo, JobQueue, JobToEnqueue } from "../infra/queue/interface.ts";

// Only types from Fedify here: the job handlers are registered in every worker at start-up, and
// Fedify loads only when a federation job first runs.

/**
 * Job names of Fedify's messages, by their `type` (so `gannet jobs list` tells them apart). Its
 * inbox messages never come: activities are processed in their request (`federationQueues`).
 */
export const FEDERATION_JOBS = {
  outbox: "federation.outbox",
  fanout: "federation.fanout",
} as const;

type MessageHandler = (message: unknown) => Promise<void> | void;

function jobNameOf(message: unknown): string {
  const type = (message as { type?: unknown } | null)?.type;
  return type === "fanout" ? FEDERATION_JOBS.fanout : FEDERATION_JOBS.outbox;
}

const delayMs = (options?: MessageQueueEnqueueOptions): number =>
  options?.delay ? Math.max(0, options.delay.total({ unit: "millisecond" })) : 0;

/**
 * Fedify's `MessageQueue` over Gannet's durable job queue: deliveries and fan-outs are jobs like
 * any other (database table or Redis), run by worker processes, shown
 * by `gannet jobs list` and waited for by the tests' `settle()`. Retries are the job queue's
 * (`nativeRetrial`: Fedify throws a failed delivery back, the job runs again with backoff and
 * dies after its attempts; permanent failures, 404 and 410, end it at once). Fedify's ordering
 * keys are not kept: jobs may run in any order, as every other Gannet job.
 */
export class JobMessageQueue implements MessageQueue {
  readonly nativeRetrial = true;
  readonly #queue: JobQueue;
  #handler?: MessageHandler;

  constructor(queue: JobQueue) {
    this.#queue = queue;
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const delay = delayMs(options);
    const runAt = delay > 0 ? new Date(Date.now() + delay) : undefined;
    const jobs: JobToEnqueue[] = messages.map((payload) => ({ name: jobNameOf(payload), payload, options: { runAt } }));
    await this.#queue.enqueueMany(jobs);
  }

  /** Keeps Fedify's handler for the jobs to call; resolves when the signal aborts. */
  listen(handler: MessageHandler, options: MessageQueueListenOptions = {}): Promise<void> {
    this.#handler = handler;
    return new Promise((resolve) => {
      if (options.signal?.aborted) return resolve();
      options.signal?.addEventListener("abort", () => resolve(), { once: true });
    });
  }

  get listening(): boolean {
    return this.#handler !== undefined;
  }

  /** Hands one job's message to Fedify; throwing makes the job retry. */
  async deliver(message: unknown): Promise<void> {
    if (!this.#handler) throw new Error("the federation queue is not listening in this process");
    await this.#handler(message);
  }
}

/**
 * The queues Fedify is given: outgoing deliveries and their fan-out. Inbox activities are not
 * queued: Fedify hands each one to its listener in the request that brought it, after the
 * signature checks, and answers 202 once it is stored (500 when storing fails, so that the
 * sender retries, as it would a queue's failure). Queued, each activity was parsed from JSON-LD
 * again in its job and cost three more statements on the job table, and on SQLite the jobs
 * waited behind every inbox request still arriving (requests go first on the connection): under
 * a stream of activities they fell behind while the server sat half idle (bench:inbox, README).
 */
export function federationQueues(ctx: AppContext): { outbox: JobMessageQueue; fanout: JobMessageQueue } {
  const q = federationQueueOf(ctx);
  return { outbox: q, fanout: q };
}

// One adapter per context (test servers in one process keep apart).
const adapters = new WeakMap<AppContext, JobMessageQueue>();

export function federationQueueOf(ctx: AppContext): JobMessageQueue {
  let q = adapters.get(ctx);
  if (!q) {
    q = new JobMessageQueue(ctx.queue);
    adapters.set(ctx, q);
  }
  return q;
}

/**
 * Starts Fedify's queue worker in this process: it only registers Fedify's handler with the
 * adapter (the job queue does the waiting and polling), so it is done when the first federation
 * job runs here, which is only ever in a worker process.
 */
function ensureListening(ctx: AppContext, federation: Federation<AppContext>): JobMessageQueue {
  const q = federationQueueOf(ctx);
  // Fedify calls `listen` synchronously on start; the promise settles only when listening stops.
  if (!q.listening) void federation.startQueue(ctx);
  return q;
}

/** The job handler of Fedify's messages (`src/jobs/index.ts`). */
export async function runFederationJob(ctx: AppContext, payload: unknown, _job: JobInfo): Promise<void> {
  const federation = await ctx.federation();
  await ensureListening(ctx, federation).deliver(payload);
}
