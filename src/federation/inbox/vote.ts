import { Note } from "@fedify/vocab";
import type { Account } from "../../db/repositories/accounts.ts";
import { ApiError } from "../../lib/errors.ts";
import { isExpired } from "../../services/polls/views.ts";
import { vote } from "../../services/polls/votes.ts";
import type { Ctx } from "./common.ts";

/**
 * A remote vote in a local poll, as Mastodon sends it: a Note whose `name` is one of the
 * options, in reply to the poll's post. Recorded with the same checks as a local vote (one per
 * account in a single-choice poll, never the author's own); a vote after the end is dropped.
 * True when the object was a vote (so it is not stored as a post), whether or not it counted.
 */
export async function receiveVote(ctx: Ctx, object: unknown, sender: Account): Promise<boolean> {
  if (!(object instanceof Note) || !object.replyTargetId) return false;
  const name = object.name?.toString();
  if (!name) return false;
  const app = ctx.data;
  const question = await app.repos.statuses.getByUri(object.replyTargetId.href);
  if (!question?.local || question.pollId === null || question.deletedAt !== null) return false;
  const poll = await app.repos.polls.getById(question.pollId);
  const choice = poll?.options.indexOf(name) ?? -1;
  if (!poll || choice < 0) return false;
  if (isExpired(poll, new Date())) return true;
  try {
    await vote(app, poll.id, sender.id, [choice]);
  } catch (e) {
    // Voted already, or the author's own poll: nothing to count.
    if (!(e instanceof ApiError)) throw e;
  }
  return true;
}
