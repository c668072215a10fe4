import { getLogger } from "@logtape/logtape";
import type { Transaction } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { FanOutOptions, FanOutStatus } from "../../db/repositories/feeds.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { DB } from "../../db/schema.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { addToConversations } from "../conversations/update.ts";
import { fanOutToLists } from "../lists/feeds.ts";
import { publishBroadcast, publishToFeeds, type StatusParts } from "../streaming/publish.ts";
import { fanOutToTagFollowers } from "../tags/fan-out.ts";

/** Home feeds keep their newest entries only (Mastodon's cap). */
export const FEED_CAP = 800;
/** Each post's fan-out looks at about one feed in this many for trimming (FeedsRepository.trimFeedsOf). */
const FEED_TRIM_EVERY = 20;

export const FAN_OUT_JOB = "feeds.fan-out";

/**
 * The fan-out of a status from another server (`immediate`): no local request is still rendering
 * it, so no first pause, and 25 feeds per statement (about 0.2 ms each on SQLite) instead of 10,
 * since such a post mostly has few local followers, whom one statement then reaches.
 */
const IMMEDIATE: FanOutOptions = { firstPauseMs: 0, chunk: 25 };

export interface FanOutPayload {
  statusId: string;
  /**
   * Start at once (a status from another server): no local request is still rendering it, so the
   * fan-out need not leave the connection to one first (FeedsRepository.fanOut's first pause).
   */
  immediate?: boolean;
}

const logger = getLogger(["gannet", "feeds"]);

/** One fan-out job per status, however it was queued. */
const fanOutDedupeKey = (statusId: string) => `${FAN_OUT_JOB}:${statusId}`;

/** Adds the fan-out of a new status (post or boost) to the jobs run after its transaction commits. */
export function enqueueFanOut(jobs: JobBatch, statusId: string, opts: { immediate?: boolean } = {}): void {
  const payload: FanOutPayload = opts.immediate ? { statusId, immediate: true } : { statusId };
  jobs.add(FAN_OUT_JOB, payload, { dedupeKey: fanOutDedupeKey(statusId) });
}

/**
 * The `feeds.fan-out` job: one set-based insert into every home feed that should show the status
 * (see `FeedsRepository.fanOut`), then those feeds trimmed to `FEED_CAP`. Idempotent; a status
 * deleted before the job runs reaches no feed. A public post also reaches the followers of its
 * hashtags. A direct status also goes into its participants' conversations. Followers who asked
 * to be notified of the author's posts (`notify`) and got it in their feed get a `status`
 * notification (a job; it leaves out boosts and replies to others). Streaming gets the status on
 * the public and hashtag streams first (they wait for no feed), then on the home and list
 * streams of the feeds it ended in (after exclusive lists took it out of homes).
 */
export async function fanOutStatus(ctx: AppContext, payload: FanOutPayload): Promise<void> {
  if (typeof payload?.statusId !== "string") return;
  const status = await ctx.repos.statuses.getById(payload.statusId);
  if (!status || status.deletedAt !== null) return;
  await fanOutLive(ctx, status, { immediate: payload.immediate === true });
}

interface LiveOptions {
  immediate: boolean;
  /** Its followers' feeds were filled already. */
  feedsFilled?: boolean;
  /** Its author's row, when the caller has it. */
  author?: Account;
  /** Its hashtags and media, when the caller stored them (no hashtag: no tag followers to reach). */
  parts?: StatusParts;
  /**
   * The status was read a moment ago (the inbox request that stored it), so that the home and
   * list streams need not read it again to see that it is still live; a job, whose fan-out may
   * take a while, reads it again before publishing (a delete meanwhile publishes nothing).
   */
  fresh?: boolean;
}

/**
 * `fanOutStatus` of a status read live. The feeds holding the status are read once,
 * after the tag followers' feeds are written: the trim looks at them, and the home streams get
 * them, less any feed the trim took the status out of; read again only when the author is in a
 * list (exclusive lists take the status out of homes). The lists holding it are then known to be
 * none when no list holds its author.
 */
async function fanOutLive(ctx: AppContext, status: Status, opts: LiveOptions): Promise<void> {
  const statusId = status.id;
  await publishBroadcast(ctx, status, opts.author, opts.parts);
  if (!opts.feedsFilled) await ctx.repos.feeds.fanOut(status, opts.immediate ? IMMEDIATE : {});
  if (opts.parts === undefined || opts.parts.tagNames.length > 0) await fanOutToTagFollowers(ctx, status);
  const homes = await ctx.repos.streaming.homesHolding(statusId);
  const dropped = await ctx.repos.feeds.trimFeedsOf(statusId, FEED_CAP, undefined, FEED_TRIM_EVERY, homes);
  // fanOutToLists asks this again (one statement more, for listed authors only).
  const listed = await ctx.repos.lists.isListed(status.accountId);
  if (listed) await fanOutToLists(ctx, statusId, status.accountId);
  if (status.visibility === "direct") await addToConversations(ctx, statusId);
  const left = dropped.length === 0 ? homes : homes.filter((id) => !dropped.includes(id));
  await publishToFeeds(ctx, opts.fresh ? status : statusId, listed ? {} : { homes: left, lists: [] });
  if ((await ctx.repos.follows.notifiedFollowersHolding(statusId)).length > 0) {
    await ctx.queue.enqueue(
      "notifications.create",
      { type: "status", statusId },
      { dedupeKey: `notifications.create:status:${statusId}` },
    );
  }
}

/**
 * The fan-out of a status that came to the inbox, run by the request that brought it (its sender
 * waits for the 202, as it waits for the status to be stored) rather than queued: a job costs four
 * statements on the jobs table, more than the fan-out itself for a status with few local
 * followers. It is run after the status's transaction committed, as a queued job would be; if it
 * fails, it is queued after all, and retried like any job. `status` is the status as read after
 * that commit; `opts.author` its author's row, as the request read it, and `opts.parts` its
 * hashtags and media, as the request stored them.
 */
export async function fanOutNow(
  ctx: AppContext,
  status: Status,
  opts: { feedsFilled?: boolean; author?: Account; parts?: StatusParts } = {},
): Promise<void> {
  const statusId = status.id;
  const payload: FanOutPayload = { statusId, immediate: true };
  try {
    if (status.deletedAt === null) {
      await fanOutLive(ctx, status, {
        immediate: true,
        feedsFilled: opts.feedsFilled,
        author: opts.author,
        parts: opts.parts,
        fresh: true,
      });
    }
  } catch (error) {
    logger.warn("Fan-out of {statusId} failed, queued to be retried: {error}", { statusId, error });
    await ctx.queue.enqueue(FAN_OUT_JOB, payload, { dedupeKey: fanOutDedupeKey(statusId) });
  }
}

/** Most local followers whose home feeds a remote post's own transaction fills (one statement). */
const IN_TRANSACTION_AT_MOST = 25;

/**
 * The home feeds of a status from another server filled inside the transaction that stores it,
 * when it has at most `IN_TRANSACTION_AT_MOST` local recipients (the common case: one statement,
 * and one commit for the post and its feeds instead of two); true when done, and `fanOutNow` is
 * then told so. Past that, false, nothing written: the fan-out runs after the commit as before,
 * in chunks, so that a post with thousands of local followers never holds SQLite's one
 * connection in a transaction.
 */
export async function fillFeedsInTransaction(
  ctx: AppContext,
  trx: Transaction<DB>,
  status: FanOutStatus,
): Promise<boolean> {
  return (await ctx.repos.feeds.fanOut(status, { ...IMMEDIATE, atMost: IN_TRANSACTION_AT_MOST }, trx)) >= 0;
}
