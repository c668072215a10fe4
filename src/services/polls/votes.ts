import type { AppContext } from "../../context.ts";
import type { Poll } from "../../db/repositories/polls.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isVisible } from "../statuses/views.ts";
import { isExpired } from "./views.ts";

/** Mastodon's vote errors (`polls.errors.*`), checked for each choice in turn. */
const EXPIRED = "The poll has already ended";
const INVALID_CHOICE = "The chosen vote option does not exist";
const SELF_VOTE = "You cannot vote in your own polls";
const ALREADY_VOTED = "You have already voted on this poll";

/**
 * A poll the viewer may see: one attached to a live status they may see (Mastodon authorises
 * the poll's status; anything else is 404).
 */
export async function findVisiblePoll(ctx: AppContext, pollId: string, viewerId: string | undefined): Promise<Poll> {
  const poll = await ctx.repos.polls.getById(pollId);
  if (!poll) throw notFound();
  const status = await ctx.repos.statuses.getById(poll.statusId);
  if (!status || status.pollId !== poll.id || !(await isVisible(ctx, status, viewerId))) throw notFound();
  return poll;
}

/**
 * `POST /api/v1/polls/:id/votes`: records the choices (indexes) in one transaction, checked as
 * Mastodon's VoteValidator does for each in turn: the poll has not ended, the option exists,
 * the voter is not the author, and no earlier vote stands in the way (a single-choice poll
 * takes one vote per account; a multiple-choice poll one per option). Any failure stores nothing.
 */
export async function vote(ctx: AppContext, pollId: string, accountId: string, choices: readonly number[]) {
  await transactionWithJobs(ctx, async (trx, jobs) => {
    const poll = await ctx.repos.polls.getForUpdate(pollId, trx);
    if (!poll) throw notFound();
    const chosen = [...((await ctx.repos.polls.ownVotes(accountId, [poll.id], trx)).get(poll.id) ?? [])];
    const now = new Date();
    const rows = [];
    for (const choice of choices) {
      const errors: string[] = [];
      if (isExpired(poll, now)) errors.push(EXPIRED);
      if (!Number.isInteger(choice) || choice < 0 || choice >= poll.options.length) errors.push(INVALID_CHOICE);
      if (poll.accountId === accountId) errors.push(SELF_VOTE);
      if (poll.multiple ? chosen.includes(choice) : chosen.length > 0) errors.push(ALREADY_VOTED);
      if (errors.length > 0) throw new ApiError(422, `Validation failed: ${errors.join(", ")}`);
      chosen.push(choice);
      rows.push({
        id: ctx.ids.next(),
        poll_id: poll.id,
        account_id: accountId,
        choice,
        created_at: now.toISOString(),
      });
    }
    await ctx.repos.polls.insertVotes(rows, trx);
    // A remote poll's author counts the votes: each goes to them (nothing is sent for local polls).
    const votes = rows.map((r) => ({ id: r.id, choice: r.choice }));
    queueDelivery(jobs, { type: "poll.vote", accountId, pollId: poll.id, votes });
  });
}
