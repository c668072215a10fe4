import type { AppContext } from "../../context.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { FEED_CAP } from "./fan-out.ts";

export const MERGE_JOB = "feeds.merge";

/** How many of the followed account's newest posts a new follow brings into home (Mastodon: a quarter of the cap). */
export const MERGE_LIMIT = FEED_CAP / 4;

export interface MergePayload {
  followerId: string;
  targetId: string;
}

/** Adds the back-fill of a follower's home feed to the jobs run after the follow commits. */
export function enqueueMerge(jobs: JobBatch, followerId: string, targetId: string): void {
  jobs.add(MERGE_JOB, { followerId, targetId } satisfies MergePayload, {
    dedupeKey: `${MERGE_JOB}:${followerId}:${targetId}`,
  });
}

/**
 * The `feeds.merge` job, Mastodon's merge into home: the followed account's newest posts and
 * boosts (at most `MERGE_LIMIT`; only those newer than the feed's oldest entry when the feed
 * already holds that many) go into the follower's feed through the home filters, which is then
 * trimmed to `FEED_CAP`. Nothing happens when the follow has ended; running twice adds nothing.
 */
export async function mergeIntoHome(ctx: AppContext, payload: MergePayload): Promise<void> {
  if (typeof payload?.followerId !== "string" || typeof payload?.targetId !== "string") return;
  const feeds = ctx.repos.feeds;
  const after = await feeds.oldestWhenAtLeast(payload.followerId, MERGE_LIMIT);
  const added = await feeds.mergeInto(payload.followerId, payload.targetId, MERGE_LIMIT, after);
  if (added > 0) await feeds.trimFeed(payload.followerId, FEED_CAP);
}
