import type { Context } from "@fedify/fedify";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { DB } from "../../db/schema.ts";
import { type JobBatch, transactionWithJobs } from "../../infra/queue/after-commit.ts";
import type { NoteLike } from "./note-read.ts";
import { type ResolvedQuote, readQuotePolicy, resolveQuote } from "./quote.ts";

/** How many unknown quoted posts an Update may fetch (as a Create). */
const FETCH_QUOTE = 1;

/**
 * The quoted local author hears of a quote of their post once it stands accepted (Mastodon's
 * `quote` notification; the job skips remote authors).
 */
export function queueQuoteNotification(jobs: JobBatch, quotingStatusId: string, quoteId: string): void {
  jobs.add("notifications.create", { type: "quote", statusId: quotingStatusId, activityId: quoteId });
}

/** Stores the quote of a newly stored remote post (in its transaction). */
export async function insertQuote(
  app: AppContext,
  trx: Kysely<DB>,
  jobs: JobBatch,
  status: { id: string; accountId: string },
  q: ResolvedQuote,
  iso: string,
): Promise<void> {
  const id = app.ids.next();
  await app.repos.quotes.insert(
    {
      id,
      statusId: status.id,
      accountId: status.accountId,
      quotedStatusId: q.quoted?.id ?? null,
      quotedAccountId: q.quoted?.accountId ?? null,
      state: q.state,
      quotedUri: q.quotedUri,
      approvalUri: q.approvalUri,
      legacy: q.legacy,
      now: iso,
    },
    trx,
  );
  if (q.state !== "accepted" || !q.quoted) return;
  await app.repos.quotes.addToQuotesCount(q.quoted.id, 1, trx);
  if (q.quoted.local && q.quoted.accountId !== status.accountId) queueQuoteNotification(jobs, status.id, id);
}

/**
 * A remote Update of a post we hold: its quote follows the Note (added, changed, its stamp
 * checked again, or dropped) and so does its quote policy. Runs whether or not the text
 * changed: the Update that brings a new stamp repeats the same text. True when something changed.
 */
export async function updateQuoteOf(
  ctx: Context<AppContext>,
  object: NoteLike,
  status: Status,
  author: Account,
): Promise<boolean> {
  const app = ctx.data;
  const existing = await app.repos.quotes.byQuotingStatus(status.id);
  const resolved = await resolveQuote(ctx, object, author, FETCH_QUOTE, existing);
  const info = await app.repos.accounts.remoteInfo(author.id);
  const policy = readQuotePolicy(object, {
    uri: author.uri,
    followersUrl: info?.followersUrl ?? null,
    followingUrl: info?.followingUrl ?? null,
  });
  // Most Updates are of posts that quote nothing: no transaction for them.
  if (!existing && !resolved && policy === status.quotePolicy) return false;
  const iso = new Date().toISOString();
  let changed = false;
  await transactionWithJobs(app, async (trx, jobs) => {
    if (policy !== status.quotePolicy) await app.repos.quotes.setPolicy(status.id, policy, trx);
    const sameQuoted =
      existing &&
      resolved &&
      (existing.quotedUri === resolved.quotedUri ||
        (existing.quotedStatusId !== null && existing.quotedStatusId === resolved.quoted?.id));
    if (existing && !sameQuoted) {
      await app.repos.quoteFederation.deleteByStatusId(status.id, trx);
      changed = true;
    }
    if (!resolved) return;
    if (!existing || !sameQuoted) {
      await insertQuote(app, trx, jobs, status, resolved, iso);
      changed = true;
      return;
    }
    // The same quoted post, not at hand now (deleted here): the quote keeps pointing at it.
    const change = {
      quotedStatusId: resolved.quoted?.id ?? existing.quotedStatusId,
      quotedAccountId: resolved.quoted?.accountId ?? existing.quotedAccountId,
      quotedUri: resolved.quotedUri,
      approvalUri: resolved.approvalUri,
      legacy: resolved.legacy,
    };
    if (
      existing.quotedStatusId !== change.quotedStatusId ||
      existing.approvalUri !== change.approvalUri ||
      existing.legacy !== change.legacy
    ) {
      await app.repos.quoteFederation.update(existing, change, iso, trx);
      changed = true;
    }
    if (existing.state === resolved.state) return;
    // An accepted quote whose approval goes is revoked, not merely rejected (Mastodon's reject!).
    const state = existing.state === "accepted" && resolved.state === "rejected" ? "revoked" : resolved.state;
    await app.repos.quotes.setState(existing.id, state, iso, trx);
    changed = true;
    if (state === "accepted" && resolved.quoted?.local && resolved.quoted.accountId !== author.id) {
      queueQuoteNotification(jobs, status.id, existing.id);
    }
  });
  return changed;
}
