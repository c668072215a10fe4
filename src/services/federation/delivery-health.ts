import { AsyncLocalStorage } from "node:async_hooks";
import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type {
  DeliveryHealth,
  FederationInstancesRepository,
  HealthDelta,
  QueuedDeliveries,
} from "../../db/repositories/federation-instances.ts";
import { forgetUnavailable } from "./availability.ts";

export type { DeliveryHealth, QueuedDeliveries };

const logger = getLogger(["gannet", "federation", "health"]);

/**
 * Per-server delivery health (the moderation panel's "last success, failures, queued"): each
 * delivery job notes its outcome in memory, without waiting on anything; the notes of a process
 * are written every `FLUSH_MS` as one statement (one row per server touched), so a burst of a
 * thousand deliveries to one server costs one upsert. Notes not yet written when a process dies
 * are lost (at most `FLUSH_MS` of them): the health is a view for operators, not a ledger.
 */
export const FLUSH_MS = 2_000;
/** The job name of a delivery (Fedify's outbox message), as federation/queue.ts names it. */
const DELIVERY_JOB = "federation.outbox";

interface Pending {
  successAt: string | null;
  failureAt: string | null;
  successes: number;
  failures: number;
  failuresAfter: number;
  lastError: string | null;
  reached: boolean;
  unreachableAt: string | null;
}

class HealthRecorder {
  readonly #ctx: AppContext;
  #pending = new Map<string, Pending>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
  }

  note(domain: string, ok: boolean, reached: boolean, error: string | null, at: string): void {
    let p = this.#pending.get(domain);
    if (!p) {
      p = {
        successAt: null,
        failureAt: null,
        successes: 0,
        failures: 0,
        failuresAfter: 0,
        lastError: null,
        reached: false,
        unreachableAt: null,
      };
      this.#pending.set(domain, p);
    }
    if (reached) {
      p.reached = true;
      p.unreachableAt = null;
    } else {
      p.unreachableAt = at;
    }
    if (ok) {
      p.successes++;
      p.successAt = at;
      p.failuresAfter = 0;
    } else {
      p.failures++;
      p.failuresAfter++;
      p.failureAt = at;
      p.lastError = error;
    }
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.flush();
      }, FLUSH_MS);
      this.#timer.unref?.();
    }
  }

  /** Writes what was noted (after any write under way). */
  flush(): Promise<void> {
    const run = this.#flushing.then(() => this.#write());
    this.#flushing = run;
    return run;
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    const deltas: HealthDelta[] = [...batch].map(([domain, p]) => ({ domain, ...p }));
    try {
      await repo(this.#ctx).recordHealth(deltas, clockOf(this.#ctx)().toISOString());
      if (deltas.some((d) => d.reached || d.unreachableAt)) forgetUnavailable(this.#ctx);
    } catch (error) {
      logger.warn("Cannot record the delivery health of {count} servers: {error}", { count: deltas.length, error });
    }
  }
}

const recorders = new WeakMap<AppContext, HealthRecorder>();

function recorder(ctx: AppContext): HealthRecorder {
  let r = recorders.get(ctx);
  if (!r) {
    r = new HealthRecorder(ctx);
    recorders.set(ctx, r);
  }
  return r;
}

export function repo(ctx: AppContext): FederationInstancesRepository {
  return ctx.repos.federationInstances;
}

/** The host (with its port, if any) of an inbox URL, as accounts name their domain; undefined for no URL. */
export function inboxHost(inbox: string): string | undefined {
  try {
    return new URL(inbox).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** A failure in a few words: the status a server answered, or the error's message. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 300);
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === "number") return `HTTP ${status}`;
  const cause = (error as { cause?: unknown }).cause;
  const text = cause instanceof Error && cause.message ? `${error.message}: ${cause.message}` : error.message;
  return (text || error.name).slice(0, 300);
}

const clocks = new WeakMap<AppContext, () => Date>();

/** The time deliveries are noted at (tests set another: the seven-day rule without waiting a week). */
export function clockOf(ctx: AppContext): () => Date {
  return clocks.get(ctx) ?? (() => new Date());
}

/** Sets the clock of `ctx`'s delivery notes (tests); undefined restores the real one. */
export function setDeliveryClock(ctx: AppContext, now: (() => Date) | undefined): void {
  if (now) clocks.set(ctx, now);
  else clocks.delete(ctx);
}

/**
 * Whether a failure still tells that the server answered: a 4xx other than 429 (Mastodon's
 * DeliveryWorker counts those as delivered: retrying cannot help, and the server is up).
 */
function answered(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500 && status !== 429;
}

/**
 * Notes the outcome of one delivery to `inbox` (no `error`: it worked). Costs a map update; the
 * write comes later, batched.
 */
export function noteDelivery(ctx: AppContext, inbox: string, error?: unknown): void {
  const domain = inboxHost(inbox);
  if (!domain) return;
  recorder(ctx).note(
    domain,
    error === undefined,
    error === undefined || answered(error),
    error === undefined ? null : describeFailure(error),
    clockOf(ctx)().toISOString(),
  );
}

/** The delivery under way in this async context, and the failure Fedify reported without throwing it. */
const delivery = new AsyncLocalStorage<{ error?: unknown }>();

/**
 * Runs one delivery (`fn`), answering the failure Fedify reported to `onOutboxError` but did not
 * throw: a permanent failure (404, 410) ends the delivery quietly. Throws what `fn` throws.
 */
export async function watchDelivery(fn: () => Promise<void>): Promise<unknown> {
  const store: { error?: unknown } = {};
  await delivery.run(store, fn);
  return store.error;
}

/** Fedify's `onOutboxError`: remembers the failure for the delivery under way (`watchDelivery`). */
export function noteOutboxError(error: unknown): void {
  const store = delivery.getStore();
  if (store) store.error = error;
}

/** Writes the notes of this process now (pages read after it; tests). */
export function flushDeliveryHealth(ctx: AppContext): Promise<void> {
  return recorders.get(ctx)?.flush() ?? Promise.resolve();
}

/** The health rows of these servers. */
export async function deliveryHealthOf(ctx: AppContext, domains: string[]): Promise<Map<string, DeliveryHealth>> {
  await flushDeliveryHealth(ctx);
  return repo(ctx).healthOf(domains);
}

/** How many servers have failed deliveries since their last that worked (the dashboard's attention list). */
export async function failingServerCount(ctx: AppContext): Promise<number> {
  await flushDeliveryHealth(ctx);
  return repo(ctx).failingCount();
}

/** At most this many queued deliveries are looked at in Redis (each is one hash read). */
const REDIS_SCAN = 5_000;

/**
 * The deliveries to `host` waiting in the job queue: not tried yet, retrying after a failure,
 * running. With Redis, the first `REDIS_SCAN` queued deliveries are looked at (`capped` then).
 */
export async function queuedDeliveriesTo(
  ctx: AppContext,
  host: string,
): Promise<QueuedDeliveries & { capped: boolean }> {
  if (ctx.queue.kind === "database" || !ctx.redis) {
    return { ...(await repo(ctx).queuedDeliveries(DELIVERY_JOB, host)), capped: false };
  }
  const prefix = `${ctx.config.redisNamespace}:jobs:`;
  const ids = await ctx.redis.zrange(`${prefix}pending:${DELIVERY_JOB}`, 0, REDIS_SCAN - 1);
  const pipe = ctx.redis.pipeline();
  for (const id of ids) pipe.hmget(`${prefix}job:${id}`, "payload", "attempts");
  const res = (await pipe.exec()) ?? [];
  const out = { waiting: 0, retrying: 0, running: 0, capped: ids.length >= REDIS_SCAN };
  for (const [, value] of res) {
    const [payload, attempts] = (value as [string | null, string | null] | null) ?? [null, null];
    if (!payload) continue;
    let inbox: unknown;
    try {
      inbox = (JSON.parse(payload) as { inbox?: unknown }).inbox;
    } catch {
      continue;
    }
    if (typeof inbox !== "string" || inboxHost(inbox) !== host) continue;
    if (Number(attempts ?? 0) > 0) out.retrying++;
    else out.waiting++;
  }
  return out;
}
