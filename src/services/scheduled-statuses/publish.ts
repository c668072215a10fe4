import type { AppContext } from "../../context.ts";
import type { Visibility } from "../../db/repositories/statuses.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { ApiError } from "../../lib/errors.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";
import { isQuotePolicyName } from "../../policies/quotes.ts";
import { pollInputFromJson } from "../polls/poll-input.ts";
import { createStatus } from "../statuses/create.ts";

export const PUBLISH_JOB = "scheduled-statuses.publish";

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** One pending job per scheduled status and time: a job for an earlier time does not hide a later one. */
const dedupeKey = (id: string, at: Date | "sweep") => `${PUBLISH_JOB}:${id}:${at === "sweep" ? at : at.toISOString()}`;

/** Queues the publication of a scheduled status at its time. */
export function enqueuePublish(jobs: JobBatch, id: string, at: Date): void {
  jobs.add(PUBLISH_JOB, { id }, { runAt: at, dedupeKey: dedupeKey(id, at) });
}

/**
 * The `scheduled-statuses.publish` job: once due, the scheduled status is claimed (its row
 * deleted, so only one worker goes on) and posted through `createStatus`, with fan-out and
 * notifications as for any post; its media are attached to the new status. One moved later is
 * queued again for its new time. A post that cannot be made any more (the post it answers was
 * deleted, the account is gone) is dropped, as Mastodon does; any other failure puts the row
 * back so the retry finds it, and the retry cannot post twice (an idempotency key per row).
 */
export async function publishScheduledStatus(ctx: AppContext, payload: { id: string }): Promise<void> {
  const row = await ctx.repos.scheduledStatuses.getById(payload.id);
  if (!row) return;
  const at = Date.parse(row.scheduledAt);
  if (at > Date.now()) {
    await ctx.queue.enqueue(
      PUBLISH_JOB,
      { id: row.id },
      { runAt: new Date(at), dedupeKey: dedupeKey(row.id, new Date(at)) },
    );
    return;
  }
  const mediaIds = (await ctx.repos.media.listByScheduledStatuses([row.id])).map((m) => m.id);
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    if (!(await ctx.repos.scheduledStatuses.delete(row.id, trx))) return false;
    await ctx.repos.media.releaseScheduledStatus(row.id, trx);
    return true;
  });
  if (!claimed) return;
  const account = await ctx.repos.accounts.getById(row.accountId);
  const user = account ? await ctx.repos.users.getByAccountId(account.id) : undefined;
  if (!account || !user || isAccountDeleted(account) || account.suspendedAt !== null) return;
  const p = row.params;
  const given = Array.isArray(p.media_ids) ? p.media_ids.map(String) : [];
  try {
    await createStatus(ctx, account, user, {
      text: str(p.text) ?? "",
      spoilerText: str(p.spoiler_text) ?? "",
      sensitive: typeof p.sensitive === "boolean" ? p.sensitive : undefined,
      visibility: str(p.visibility) as Visibility | undefined,
      language: str(p.language),
      inReplyToId: str(p.in_reply_to_id),
      applicationId: str(p.application_id) ?? null,
      mediaIds: given.filter((id) => mediaIds.includes(id)),
      poll: pollInputFromJson(p.poll),
      idempotencyKey: `scheduled-status-${row.id}`,
      allowedMentions: Array.isArray(p.allowed_mentions) ? p.allowed_mentions.map(String) : undefined,
      quotedStatusId: str(p.quoted_status_id),
      quotePolicy: isQuotePolicyName(p.quote_approval_policy) ? p.quote_approval_policy : undefined,
    });
  } catch (e) {
    if (e instanceof ApiError) return;
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.scheduledStatuses.insert(
        {
          id: row.id,
          account_id: row.accountId,
          scheduled_at: row.scheduledAt,
          params: row.params,
          created_at: row.createdAt,
        },
        trx,
      );
      await ctx.repos.media.attachToScheduledStatus(mediaIds, row.id, row.accountId, trx);
    });
    throw e;
  }
}

/**
 * The periodic sweep: queues every scheduled status already due (its own job may have been
 * lost or moved), at most `batch` at a time. Answers how many were queued.
 */
export async function queueDueScheduledStatuses(ctx: AppContext, batch = 500): Promise<number> {
  const ids = await ctx.repos.scheduledStatuses.dueIds(new Date().toISOString(), batch);
  if (ids.length === 0) return 0;
  await ctx.queue.enqueueMany(
    ids.map((id) => ({ name: PUBLISH_JOB, payload: { id }, options: { dedupeKey: dedupeKey(id, "sweep") } })),
  );
  return ids.length;
}
