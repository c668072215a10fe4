import type { AppContext } from "../context.ts";
import type { JobBatch } from "../infra/queue/after-commit.ts";
import type { JobToEnqueue } from "../infra/queue/interface.ts";

/**
 * The outgoing activities services queue after their commit, one `federation.deliver` job each.
 * The payload carries ids (and what a deleted row no longer tells: a follow's or like's id);
 * the job loads the rest, works out the remote recipients and, only when there are some, loads
 * Fedify to build and send the activity. This module has no Fedify import so services stay light.
 */
export type Delivery =
  | { type: "status.create" | "status.delete"; statusId: string }
  /**
   * `at`: when the Update happened if not at the post's edit (a quote's approval arriving): it
   * names the Update, which must differ from the edit's so that receivers do not drop it as seen.
   */
  | { type: "status.update"; statusId: string; at?: string }
  /** `statusId` is the boost's own row (its `reblog_of_id` is the boosted post). */
  | { type: "announce" | "announce.undo"; statusId: string }
  | { type: "like" | "like.undo"; accountId: string; statusId: string; likeId: string }
  | { type: "poll.vote"; accountId: string; pollId: string; votes: { id: string; choice: number }[] }
  /** `uri` is the Follow activity's id (kept on the follow request, then on the follow). */
  | { type: "follow" | "follow.undo"; accountId: string; targetId: string; uri: string }
  /** A local account (`accountId`) answers a remote follower's Follow (`uri`, stored by the inbox). */
  | { type: "follow.accept" | "follow.reject"; accountId: string; followerId: string; uri: string | null }
  | { type: "block" | "block.undo"; accountId: string; targetId: string; uri: string }
  | { type: "flag"; reportId: string }
  | { type: "actor.update"; accountId: string }
  | { type: "featured.add" | "featured.remove"; accountId: string; statusId: string }
  | { type: "featured-tag.add" | "featured-tag.remove"; accountId: string; tag: string }
  | { type: "move"; accountId: string; targetUri: string }
  /** A local post's quote (row `quoteId`) of a remote post: the QuoteRequest to its author. */
  | { type: "quote.request"; quoteId: string }
  /**
   * A local author (`accountId`) answers a remote account's QuoteRequest (`activityUri`) to quote
   * `quotedStatusId` in `quotingUri`; `quoteId` is the quote's row when stored, `key` names the
   * answer otherwise.
   */
  | {
      type: "quote.accept" | "quote.reject";
      accountId: string;
      requesterId: string;
      activityUri: string;
      quotingUri: string;
      quotedStatusId: string;
      quoteId: string | null;
      key: string;
    }
  /** A local author revoked quote `quoteId` of their post: `Delete` of its stamp. */
  | { type: "quote.revoke"; quoteId: string }
  /** A local account was deleted: `Delete` of the actor to every server known here. */
  | { type: "actor.delete"; accountId: string };

export const DELIVER_JOB = "federation.deliver";

/** Queues one activity with the transaction's other jobs (sent only if it commits). */
export function queueDelivery(jobs: JobBatch, delivery: Delivery): void {
  // A profile changed twice before its job ran sends one Update with the newest profile.
  const dedupeKey = delivery.type === "actor.update" ? `${DELIVER_JOB}:actor:${delivery.accountId}` : undefined;
  jobs.add(DELIVER_JOB, delivery, dedupeKey ? { dedupeKey } : undefined);
}

/** Queues one activity at once, for changes made outside `transactionWithJobs`. */
export async function enqueueDelivery(ctx: Pick<AppContext, "queue">, delivery: Delivery): Promise<void> {
  const batch: JobToEnqueue[] = [];
  queueDelivery({ add: (name, payload, options) => batch.push({ name, payload, options }) }, delivery);
  await ctx.queue.enqueueMany(batch);
}
