import type { AppContext } from "../../context.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { createNotifications } from "../notifications/create.ts";

export const POLL_EXPIRY_JOB = "polls.expire";

/** One pending job per poll and closing time (an edit may move it). */
const dedupeKey = (pollId: string, at: Date) => `${POLL_EXPIRY_JOB}:${pollId}:${at.toISOString()}`;

/** Queues the end of a poll at its closing time. */
export function enqueuePollExpiry(jobs: JobBatch, pollId: string, expiresAt: Date): void {
  jobs.add(POLL_EXPIRY_JOB, { pollId }, { runAt: expiresAt, dedupeKey: dedupeKey(pollId, expiresAt) });
}

/**
 * The `polls.expire` job: once the poll has ended, a `poll` notification to its author and to
 * every local voter (Mastodon's PollExpirationNotifyWorker). A poll whose end was moved later
 * by an edit is queued again for its new time; a deleted poll is forgotten. Notifications are
 * unique per recipient and poll, so running twice notifies once.
 */
export async function expirePoll(ctx: AppContext, payload: { pollId: string }): Promise<void> {
  const poll = await ctx.repos.polls.getById(payload.pollId);
  if (!poll || poll.expiresAt === null) return;
  const at = Date.parse(poll.expiresAt);
  if (at > Date.now()) {
    await ctx.queue.enqueue(
      POLL_EXPIRY_JOB,
      { pollId: poll.id },
      { runAt: new Date(at), dedupeKey: dedupeKey(poll.id, new Date(at)) },
    );
    return;
  }
  await createNotifications(ctx, { type: "poll", statusId: poll.statusId, activityId: poll.id });
}
