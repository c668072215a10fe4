import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import { purgeDomainMediaCache } from "../media/remote-cache.ts";
import { deleteRemoteStatuses } from "../statuses/delete-batch.ts";
import { SEVERED_NOTIFY_JOB } from "./severed-relationships.ts";

const logger = getLogger(["gannet", "moderation"]);

/** Queued when a block is added or changed: cached media, and for a suspension the follows and the purge. */
export const DOMAIN_BLOCK_JOB = "moderation.domain-block";
/** A batch of the suspended domain's posts, then itself again for the next. */
export const DOMAIN_PURGE_JOB = "moderation.domain-purge";

/** Accounts whose follows end in one transaction. */
const FOLLOW_BATCH = 5;
/** Accounts a purge job looks at, and posts it deletes, before it hands over to the next job. */
const PURGE_ACCOUNTS = 20;
const PURGE_STATUSES = 200;
/** Posts deleted in one transaction. */
const DELETE_BATCH = 5;

/**
 * Lets the requests waiting meanwhile be answered: on SQLite every query runs on the main thread,
 * and awaiting its (already settled) promise never gives the event loop a turn. After a batch that
 * took `busyMs`, the purge rests as long (half the thread at most goes to it: a purge of 20,000
 * posts takes about twice as long, and requests wait less behind it).
 */
const yieldToRequests = (busyMs = 0) =>
  new Promise<void>((resolve) => (busyMs >= 1 ? setTimeout(resolve, Math.min(busyMs, 200)) : setImmediate(resolve)));

export interface DomainPurgeJob {
  blockId: string;
  /** The block's `created_at`: the accounts it suspended carry it; a different block stops the purge. */
  createdAt: string;
  /** The purge goes on with the accounts after this id. */
  after: string;
}

/**
 * The `moderation.domain-block` job (Mastodon's BlockDomainService after the accounts were marked):
 * the domain's cached media go when the block rejects media or suspends; a suspension then
 * records the follows between local accounts and the domain's (a relationship severance event,
 * for the `severed_relationships` notifications and the downloadable lists), ends them with the
 * counters kept right, and starts the purge of the posts.
 */
export async function runDomainBlock(ctx: AppContext, payload: { blockId: string }): Promise<void> {
  if (typeof payload?.blockId !== "string") return;
  const block = await ctx.repos.instanceDomainBlocks.getById(payload.blockId);
  if (!block) return;
  if (block.rejectMedia || block.severity === "suspend") await purgeDomainMediaCache(ctx, block.domain);
  if (block.severity !== "suspend") return;

  const eventId = ctx.ids.next();
  await ctx.repos.severedRelationships.recordDomainEvent(
    { id: eventId, type: "domain_block", targetName: block.domain, createdAt: new Date().toISOString() },
    block.domain,
    () => ctx.ids.next(),
  );
  let after = "0";
  for (;;) {
    const ids = await ctx.repos.instanceDomainBlocks.accountIdsOf(block.domain, after, FOLLOW_BATCH);
    const started = performance.now();
    await ctx.db.transaction().execute(async (trx) => {
      for (const id of ids) await ctx.repos.follows.removeAllOf(id, trx);
    });
    await yieldToRequests(performance.now() - started);
    const last = ids.at(-1);
    if (ids.length < FOLLOW_BATCH || last === undefined) break;
    after = last;
  }
  await ctx.queue.enqueueMany([
    { name: SEVERED_NOTIFY_JOB, payload: { eventId } },
    {
      name: DOMAIN_PURGE_JOB,
      payload: { blockId: block.id, createdAt: block.createdAt, after: "0" } satisfies DomainPurgeJob,
    },
  ]);
}

/**
 * The `moderation.domain-purge` job: deletes the posts of the accounts the block suspended (as
 * when their server deletes them: tombstones, with their boosts, feed entries, notifications,
 * media files and polls), then what each did to others' posts, a bounded batch per job so that
 * the server keeps answering. The accounts stay, suspended (Mastodon's DeleteAccountService with
 * `reserve_username`), so that lifting the block restores them empty. Stops when the block is
 * gone or no longer a suspension.
 */
export async function runDomainPurge(ctx: AppContext, job: DomainPurgeJob): Promise<void> {
  if (typeof job?.blockId !== "string" || typeof job.createdAt !== "string") return;
  const block = await ctx.repos.instanceDomainBlocks.getById(job.blockId);
  if (block?.severity !== "suspend" || block.createdAt !== job.createdAt) return;
  const ids = await ctx.repos.instanceDomainBlocks.accountIdsOf(
    block.domain,
    job.after,
    PURGE_ACCOUNTS,
    block.createdAt,
  );
  let budget = PURGE_STATUSES;
  let after = job.after;
  for (const id of ids) {
    const account = await ctx.repos.accounts.getById(id);
    if (!account) continue;
    const statuses = await ctx.repos.statuses.liveOf(id, budget);
    for (let i = 0; i < statuses.length; i += DELETE_BATCH) {
      const started = performance.now();
      await deleteRemoteStatuses(ctx, statuses.slice(i, i + DELETE_BATCH));
      await yieldToRequests(performance.now() - started);
    }
    budget -= statuses.length;
    // This account may have more: the next job starts with it again.
    if (budget <= 0) return next(ctx, job, after);
    const started = performance.now();
    await ctx.repos.accountPurge.removeTracesOf(id, new Date().toISOString());
    await yieldToRequests(performance.now() - started);
    after = id;
  }
  if (ids.length === PURGE_ACCOUNTS) return next(ctx, job, after);
  logger.info("Purged the content of {domain}", { domain: block.domain });
}

async function next(ctx: AppContext, job: DomainPurgeJob, after: string): Promise<void> {
  await ctx.queue.enqueue(DOMAIN_PURGE_JOB, { ...job, after } satisfies DomainPurgeJob);
}
