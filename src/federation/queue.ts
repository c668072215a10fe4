import type { Federation, MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../context.ts";
import { DatabaseKvStore } from "../infra/kv/fedify-kv.ts";
import { type JobInfo, type JobQueue, type JobToEnqueue, PermanentJobError } from "../infra/queue/interface.ts";
import { ForbiddenAddressError, UnsupportedUrlError } from "../lib/net/errors.ts";
import { isUnavailable } from "../services/federation/availability.ts";
import { inboxHost, noteDelivery, watchDelivery } from "../services/federation/delivery-health.ts";
import type { CircuitDecision, DeliveryCircuit } from "./delivery-circuit.ts";
import { DELIVERY_ATTEMPTS, HOST_BUSY_DELAY_MS, HostLimiter } from "./delivery-limits.ts";
import type { OutboxMessage, SpecMemory } from "./delivery-send.ts";

const logger = getLogger(["gannet", "federation"]);

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

/** Attempts and retry delays of one delivery: Mastodon's (delivery-limits.ts). */
export { DELIVERY_ATTEMPTS, deliveryBackoff } from "./delivery-limits.ts";

type MessageHandler = (message: unknown) => Promise<void> | void;

function jobNameOf(message: unknown): string {
  const type = (message as { type?: unknown } | null)?.type;
  return type === "fanout" ? FEDERATION_JOBS.fanout : FEDERATION_JOBS.outbox;
}

const delayMs = (options?: MessageQueueEnqueueOptions): number =>
  options?.delay ? Math.max(0, options.delay.total({ unit: "millisecond" })) : 0;

/** The parts of an outbox message that Fedify's fan-out shares between all the inboxes of one activity. */
const SHARED_PARTS = ["activity", "keys"] as const;

/**
 * Where an outbox job keeps its activity: as the JSON text sent (`delivery-send.ts` sends it as it
 * is), not as an object that each delivery parsed from the job and serialised again.
 */
export const ACTIVITY_JSON = "gannetActivityJson";

/**
 * An outbox message as a job's JSON, its activity and keys serialised once for all the messages
 * of one fan-out (Fedify gives them the same objects): `JSON.stringify` of each whole message,
 * the compacted activity and both private keys in each, was 0.14 ms of the main thread per
 * delivery. The activity goes in as its JSON text (`ACTIVITY_JSON`); `fedifyMessage` turns it
 * back for Fedify.
 */
function outboxJson(message: unknown, shared: Map<unknown, string>): string | undefined {
  if (message === null || typeof message !== "object") return undefined;
  const rest: Record<string, unknown> = { ...(message as Record<string, unknown>) };
  const parts: string[] = [];
  for (const name of SHARED_PARTS) {
    const value = rest[name];
    if (value === undefined) continue;
    delete rest[name];
    let json = shared.get(value);
    if (json === undefined) {
      json = name === "activity" ? JSON.stringify(JSON.stringify(value)) : JSON.stringify(value);
      shared.set(value, json);
    }
    parts.push(`${JSON.stringify(name === "activity" ? ACTIVITY_JSON : name)}:${json}`);
  }
  const head = JSON.stringify(rest);
  if (parts.length === 0) return head;
  return head === "{}" ? `{${parts.join(",")}}` : `${head.slice(0, -1)},${parts.join(",")}}`;
}

/** An outbox job's payload as Fedify's message: its activity an object again. */
export function fedifyMessage(payload: unknown): unknown {
  const p = payload as Record<string, unknown> | null;
  if (typeof p?.[ACTIVITY_JSON] !== "string") return payload;
  const { [ACTIVITY_JSON]: json, ...rest } = p;
  return { ...rest, activity: JSON.parse(json as string) };
}

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
    const shared = new Map<unknown, string>();
    const jobs: JobToEnqueue[] = messages.map((payload) => {
      const name = jobNameOf(payload);
      const attempts = name === FEDERATION_JOBS.outbox ? DELIVERY_ATTEMPTS : undefined;
      const payloadJson = name === FEDERATION_JOBS.outbox ? outboxJson(payload, shared) : undefined;
      return { name, payload, payloadJson, options: { runAt, attempts } };
    });
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
 * a stream of activities they fell behind while the server sat half idle (bench:inbox, docs/performance.md).
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

/** Where a held delivery keeps the time it was first held (Fedify ignores fields it does not know). */
const HELD_SINCE = "gannetHeldSince";

type OutboxPayload = { type: "outbox"; inbox: string; activityId?: string; [HELD_SINCE]?: number };

function isOutbox(payload: unknown): payload is OutboxPayload {
  const p = payload as Partial<OutboxPayload> | null;
  return p?.type === "outbox" && typeof p.inbox === "string";
}

interface Sender {
  circuit: DeliveryCircuit;
  specs: SpecMemory;
  send: typeof import("./delivery-send.ts").sendOutbox;
}

// One circuit and one memory of signature specs per context, as the queue adapters.
const senders = new WeakMap<AppContext, Sender>();

// Loaded with Fedify, in the first federation job (the Temporal polyfill comes with it).
async function senderOf(ctx: AppContext): Promise<Sender> {
  let s = senders.get(ctx);
  if (!s) {
    const [{ DeliveryCircuit }, { SpecMemory, sendOutbox }] = await Promise.all([
      import("./delivery-circuit.ts"),
      import("./delivery-send.ts"),
    ]);
    const kv = new DatabaseKvStore(ctx.repos.kv);
    s = { circuit: new DeliveryCircuit(kv), specs: new SpecMemory(kv), send: sendOutbox };
    senders.set(ctx, s);
  }
  return s;
}

/**
 * Sends one delivery (delivery-send.ts); what that path leaves to Fedify (a redirect, a signature
 * challenge) goes through Fedify's worker as before. Answers the failure that ends the delivery
 * without a retry (404, 410), if any; throws a failure to retry.
 */
async function send(ctx: AppContext, sender: Sender, q: JobMessageQueue, payload: OutboxPayload): Promise<unknown> {
  const outcome = await sender.send(payload as unknown as OutboxMessage, sender.specs, ctx.guardedFetch);
  if (outcome.type === "sent") return undefined;
  if (outcome.type === "gone") return outcome.error;
  return watchDelivery(() => q.deliver(fedifyMessage(payload)));
}

// One limiter per context, as the circuits.
const limiters = new WeakMap<AppContext, HostLimiter>();

function limiterOf(ctx: AppContext): HostLimiter {
  let l = limiters.get(ctx);
  if (!l) {
    l = new HostLimiter(ctx.config.deliveryConcurrencyPerServer);
    limiters.set(ctx, l);
  }
  return l;
}

/** The guarded client refused the inbox's address or URL: retrying cannot change that. */
function refusedByPolicy(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof ForbiddenAddressError || cause instanceof UnsupportedUrlError;
}

/**
 * What a failed delivery says of its inbox: unreachable (no connection, a time-out, a 5xx),
 * reachable (it answered 4xx), or nothing (the failure came before any request).
 */
function inboxState(error: unknown): "unreachable" | "reachable" | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === "FetchError") return "unreachable";
  const status = (error as { statusCode?: unknown }).statusCode;
  if (error.name !== "SendActivityError" || typeof status !== "number") return undefined;
  return status >= 500 ? "unreachable" : "reachable";
}

/**
 * One delivery through its inbox's circuit (delivery-circuit.ts): sent, or queued again for when
 * the circuit may close (this job then ends: no attempt is used up while held), or dropped once
 * held for a week. The circuit's own failures never stop a delivery.
 */
async function deliverThroughCircuit(ctx: AppContext, q: JobMessageQueue, payload: OutboxPayload): Promise<void> {
  const host = inboxHost(payload.inbox);
  // Mastodon's DeliveryWorker: nothing is sent to a server marked unavailable (seven days of
  // failures, services/federation/availability.ts) until it is available again.
  if (host && (await isUnavailable(ctx, host))) return;
  if (!host) return deliverUnlimited(ctx, q, payload);
  const limiter = limiterOf(ctx);
  if (!limiter.tryAcquire(host)) {
    // The server has its share of the slots (a slow one holds them until its time-out): this
    // delivery waits in the queue, not in a slot the other servers could use.
    const runAt = new Date(Date.now() + HOST_BUSY_DELAY_MS * (1 + Math.random()));
    await ctx.queue.enqueue(FEDERATION_JOBS.outbox, payload, { runAt, attempts: DELIVERY_ATTEMPTS });
    return;
  }
  try {
    await deliverUnlimited(ctx, q, payload);
  } finally {
    limiter.release(host);
  }
}

async function deliverUnlimited(ctx: AppContext, q: JobMessageQueue, payload: OutboxPayload): Promise<void> {
  const sender = await senderOf(ctx);
  const circuit = sender.circuit;
  const heldSince = typeof payload[HELD_SINCE] === "number" ? payload[HELD_SINCE] : undefined;
  let decision: CircuitDecision = { type: "send", state: undefined };
  try {
    decision = await circuit.before(payload.inbox, heldSince);
  } catch (error) {
    logger.warn("Cannot read the delivery circuit of {inbox}; sending: {error}", { inbox: payload.inbox, error });
  }
  if (decision.type === "drop") {
    logger.warn("Dropped activity {activityId} to {inbox}: held for a week by its circuit", {
      activityId: payload.activityId,
      inbox: payload.inbox,
    });
    return;
  }
  if (decision.type === "hold") {
    const held = { ...payload, [HELD_SINCE]: heldSince ?? Date.now() };
    await ctx.queue.enqueue(FEDERATION_JOBS.outbox, held, {
      runAt: new Date(decision.runAt),
      attempts: DELIVERY_ATTEMPTS,
    });
    return;
  }
  const state = decision.state;
  const record = async (f: () => Promise<void>) => {
    try {
      await f();
    } catch (error) {
      logger.warn("Cannot record a delivery to {inbox} in its circuit: {error}", { inbox: payload.inbox, error });
    }
  };
  let quietFailure: unknown;
  try {
    quietFailure = await send(ctx, sender, q, payload);
  } catch (error) {
    // The server's delivery health (the moderation panel): noted in memory, written batched.
    noteDelivery(ctx, payload.inbox, error);
    if (refusedByPolicy(error)) {
      throw new PermanentJobError(`delivery to ${payload.inbox} refused: ${(error as Error).cause}`);
    }
    const inbox = inboxState(error);
    if (inbox === "unreachable") await record(() => circuit.failed(payload.inbox));
    else if (inbox === "reachable") await record(() => circuit.reached(payload.inbox, state));
    throw error;
  }
  // A permanent failure (404, 410) is not thrown: Fedify gives up on the delivery by itself.
  noteDelivery(ctx, payload.inbox, quietFailure);
  await record(() => circuit.reached(payload.inbox, state));
}

/** The job handler of Fedify's messages (`src/jobs/index.ts`). */
export async function runFederationJob(ctx: AppContext, payload: unknown, _job: JobInfo): Promise<void> {
  const federation = await ctx.federation();
  const q = ensureListening(ctx, federation);
  if (isOutbox(payload)) await deliverThroughCircuit(ctx, q, payload);
  else await q.deliver(fedifyMessage(payload));
}
