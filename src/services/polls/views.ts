import type { AppContext } from "../../context.ts";
import type { Poll } from "../../db/repositories/polls.ts";
import { type PollView, serializePoll } from "../../serializers/poll.ts";

/** A poll's view with its whole row (callers also need its author). */
export interface LoadedPoll extends PollView {
  poll: Poll;
}

/** Whether a poll has ended. */
export function isExpired(poll: Poll, now: Date = new Date()): boolean {
  return poll.expiresAt !== null && Date.parse(poll.expiresAt) <= now.getTime();
}

/** Views of polls (by id; missing ones left out) with their tallies and the viewer's votes, in 3 queries. */
export async function loadPollViews(
  ctx: AppContext,
  pollIds: readonly string[],
  viewerId: string | undefined,
): Promise<Map<string, LoadedPoll>> {
  const out = new Map<string, LoadedPoll>();
  if (pollIds.length === 0) return out;
  const [polls, tallies, own] = await Promise.all([
    ctx.repos.polls.getByIds(pollIds),
    ctx.repos.polls.tallies(pollIds),
    viewerId === undefined ? undefined : ctx.repos.polls.ownVotes(viewerId, pollIds),
  ]);
  const now = new Date();
  for (const poll of polls) {
    const mine = own?.get(poll.id) ?? [];
    out.set(poll.id, {
      poll,
      tally: tallies.get(poll.id) ?? { perOption: new Map(), votesCount: 0, votersCount: 0 },
      expired: isExpired(poll, now),
      viewer:
        viewerId === undefined ? undefined : { voted: poll.accountId === viewerId || mine.length > 0, ownVotes: mine },
    });
  }
  return out;
}

/** Poll JSON for one poll the caller may see. */
export async function pollJson(ctx: AppContext, poll: Poll, viewerId: string | undefined) {
  const view = (await loadPollViews(ctx, [poll.id], viewerId)).get(poll.id);
  if (!view) throw new Error("the poll vanished");
  return serializePoll(view);
}
