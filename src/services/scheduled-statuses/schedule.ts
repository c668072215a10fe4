import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { ScheduledStatus } from "../../db/repositories/scheduled-statuses.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { serializeScheduledStatus } from "../../serializers/scheduled-status.ts";
import { pollParamsJson } from "../polls/poll-input.ts";
import { type CreateStatusInput, checkStatusInput } from "../statuses/create.ts";
import { claimIdempotencyKey, idempotencyKeyOf, idempotentId } from "../statuses/idempotency.ts";
import { enqueuePublish } from "./publish.ts";

/** Mastodon's ScheduledStatus limits. */
export const SCHEDULED_LIMITS = {
  total: 300,
  perDay: 25,
  /** A post must be scheduled more than this far ahead (PostStatusService::MIN_SCHEDULE_OFFSET). */
  minOffsetMs: 5 * 60_000,
} as const;

/**
 * Mastodon's ScheduledStatus validations, every failure in one 422: far enough ahead, at most
 * 300 waiting, at most 25 on that (UTC) day. `exceptId` leaves the one being moved out of the counts.
 */
async function checkSchedule(ctx: AppContext, accountId: string, at: Date, except?: ScheduledStatus) {
  const errors: string[] = [];
  if (at.getTime() <= Date.now() + SCHEDULED_LIMITS.minOffsetMs) {
    errors.push("Scheduled at The scheduled date must be in the future");
  }
  const total = (await ctx.repos.scheduledStatuses.count(accountId)) - (except ? 1 : 0);
  if (total >= SCHEDULED_LIMITS.total) {
    errors.push(`You have exceeded the limit of ${SCHEDULED_LIMITS.total} scheduled posts`);
  }
  const day = at.toISOString().slice(0, 10);
  const from = `${day}T00:00:00.000Z`;
  const to = new Date(Date.parse(from) + 86_400_000).toISOString();
  const sameDay = except !== undefined && except.scheduledAt.slice(0, 10) === day ? 1 : 0;
  const onDay = (await ctx.repos.scheduledStatuses.count(accountId, { from, to })) - sameDay;
  if (onDay >= SCHEDULED_LIMITS.perDay) {
    errors.push(`You have exceeded the limit of ${SCHEDULED_LIMITS.perDay} scheduled posts for today`);
  }
  if (errors.length > 0) throw new ApiError(422, `Validation failed: ${errors.join(", ")}`);
}

/**
 * `scheduled_at` of a request: a time, or a 422. (Mastodon posts at once when the time is
 * already past; the caller decides that.) The 422 says "Record invalid", Mastodon's words for a
 * time Ruby cannot read (a bare ActiveRecord::RecordInvalid); clients such as toot compare them.
 */
export function parseScheduledAt(v: string): Date {
  const text = v.trim();
  // A time without a zone is UTC, as Ruby reads it (JavaScript would take the server's zone).
  const zoned = /[T ]\d\d:\d\d/.test(text) && !/(Z|[+-]\d\d:?\d\d)$/i.test(text) ? `${text}Z` : text;
  const t = Date.parse(zoned.replace(" ", "T"));
  if (!/^\d{4}-\d\d-\d\d/.test(text) || Number.isNaN(t)) {
    throw new ApiError(422, "Record invalid");
  }
  return new Date(t);
}

/**
 * `POST /api/v1/statuses` with `scheduled_at`: the post is checked as if it were posted now
 * (media, length, poll, the post replied to), then kept with its media until it is due; a job
 * publishes it then. The same `Idempotency-Key` within an hour gives back the first one.
 */
export async function scheduleStatus(
  ctx: AppContext,
  account: Account,
  input: CreateStatusInput,
  at: Date,
): Promise<ScheduledStatus> {
  const idemKey = idempotencyKeyOf("scheduled", account.id, input.idempotencyKey);
  // The one an earlier request with the key made (published or cancelled since: 404, as Mastodon).
  const earlier = async (key: string) => {
    const previous = await idempotentId(ctx, key);
    if (previous === undefined) return undefined;
    const row = await ctx.repos.scheduledStatuses.getOwned(previous, account.id);
    if (!row) throw notFound();
    return row;
  };
  if (idemKey) {
    const found = await earlier(idemKey);
    if (found) return found;
  }
  const { media, poll } = await checkStatusInput(ctx, account, input);
  await checkSchedule(ctx, account.id, at);
  const now = new Date();
  const id = ctx.ids.next();
  const params: Record<string, unknown> = {
    poll: poll ? pollParamsJson(poll) : null,
    text: input.text,
    language: input.language ?? null,
    media_ids: input.mediaIds && input.mediaIds.length > 0 ? media.map((m) => m.id) : null,
    sensitive: input.sensitive ?? null,
    visibility: input.visibility ?? null,
    idempotency: null,
    scheduled_at: null,
    spoiler_text: input.spoilerText === "" ? null : input.spoilerText,
    application_id: input.applicationId,
    in_reply_to_id: input.inReplyToId ?? null,
    with_rate_limit: false,
    // Checked when the post is published, as Mastodon does (PostStatusService#safeguard_mentions!).
    allowed_mentions: input.allowedMentions ?? null,
    // Checked again (and the quote made) when the post is published.
    quoted_status_id: input.quotedStatusId ?? null,
    quote_approval_policy: input.quotePolicy ?? null,
  };
  // The key is taken with the row (see createStatus).
  const stored = await transactionWithJobs(ctx, async (trx, jobs) => {
    if (idemKey && !(await claimIdempotencyKey(ctx, trx, idemKey, id, now))) return false;
    await ctx.repos.scheduledStatuses.insert(
      { id, account_id: account.id, scheduled_at: at.toISOString(), params, created_at: now.toISOString() },
      trx,
    );
    await ctx.repos.media.attachToScheduledStatus(
      media.map((m) => m.id),
      id,
      account.id,
      trx,
    );
    enqueuePublish(jobs, id, at);
    return true;
  });
  if (!stored && idemKey) {
    const first = await earlier(idemKey);
    if (!first) throw notFound();
    return first;
  }
  const row = await ctx.repos.scheduledStatuses.getById(id);
  if (!row) throw new Error("the new scheduled status vanished");
  return row;
}

/** A page of the account's own scheduled statuses. */
export function listScheduledStatuses(
  ctx: AppContext,
  accountId: string,
  window: IdWindow,
): Promise<ScheduledStatus[]> {
  return ctx.repos.scheduledStatuses.page(accountId, window);
}

/** One of the caller's scheduled statuses, else 404. */
export async function findOwnScheduledStatus(ctx: AppContext, id: string, accountId: string): Promise<ScheduledStatus> {
  const row = isId(id) ? await ctx.repos.scheduledStatuses.getOwned(id, accountId) : undefined;
  if (!row) throw notFound();
  return row;
}

/** `PUT /api/v1/scheduled_statuses/:id`: a new time, with the same checks as scheduling. */
export async function rescheduleStatus(ctx: AppContext, row: ScheduledStatus, at: Date): Promise<ScheduledStatus> {
  await checkSchedule(ctx, row.accountId, at, row);
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.scheduledStatuses.setScheduledAt(row.id, at.toISOString(), trx);
    enqueuePublish(jobs, row.id, at);
  });
  return { ...row, scheduledAt: at.toISOString() };
}

/** `DELETE /api/v1/scheduled_statuses/:id`: cancelled; its media become ordinary unattached uploads. */
export async function cancelScheduledStatus(ctx: AppContext, row: ScheduledStatus): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.scheduledStatuses.delete(row.id, trx);
    await ctx.repos.media.releaseScheduledStatus(row.id, trx);
  });
}

/** ScheduledStatus JSON for rows the caller owns, their media in one query. */
export async function scheduledStatusesJson(
  ctx: AppContext,
  rows: readonly ScheduledStatus[],
): Promise<Record<string, unknown>[]> {
  const media = await ctx.repos.media.listByScheduledStatuses(rows.map((r) => r.id));
  return rows.map((r) =>
    serializeScheduledStatus(
      r,
      media.filter((m) => m.scheduledStatusId === r.id),
      (key) => ctx.blobs.url(key),
    ),
  );
}
