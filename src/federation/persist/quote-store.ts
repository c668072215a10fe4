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
 * `quote` notification).
 */
export function queueQuoteNotification(_jobs: JobBatch, _quotingStatusId: string): void {}

/** Stores the quote of a newly stored remote post (in its transaction). */
export async function insertQuote(
  app: AppContext,
  trx: Kysely<DB>,
  jobs: JobBatch,
  status: { id: string; accountId: string },
  q: ResolvedQuote,
  iso: string,
): Promise<void> {
  await app.repos.quoteFederation.insert(
    {
      id: app.ids.next(),
      status_id: status.id,
      account_id: status.accountId,
      quoted_status_id: q.quoted?.id ?? null,
      quoted_account_id: q.quoted?.accountId ?? null,
      state: q.state,
      quoted_uri: q.quotedUri,
      approval_uri: q.approvalUri,
      activity_uri: null,
      legacy: q.legacy,
    },
    iso,
    trx,
  );
  if (q.state === "accepted" && q.quoted?.local && q.quoted.accountId !== status.accountId) {
    queueQuoteNotification(jobs, status.id);
  }
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
  const repo = app.repos.quoteFederation;
  const existing = await repo.getByStatusId(status.id);
  const resolved = await resolveQuote(ctx, object, author, FETCH_QUOTE, existing);
  const info = await app.repos.accounts.remoteInfo(author.id);
  const policy = readQuotePolicy(object, {
    uri: author.uri,
    followersUrl: info?.followersUrl ?? null,
    followingUrl: info?.followingUrl ?? null,
  });
  const [oldPolicy] = (await repo.quotePolicies([status.id])).values();
  const iso = new Date().toISOString();
  let changed = false;
  await transactionWithJobs(app, async (trx, jobs) => {
    if (policy !== (oldPolicy ?? null)) await repo.setQuotePolicy(status.id, policy, trx);
    const sameQuoted =
      existing &&
      resolved &&
      (existing.quotedUri === resolved.quotedUri || existing.quotedStatusId === resolved.quoted?.id);
    if (existing && !sameQuoted) {
      await repo.deleteByStatusId(status.id, trx);
      changed = true;
    }
    if (!resolved) return;
    if (!existing || !sameQuoted) {
      await insertQuote(app, trx, jobs, status, resolved, iso);
      changed = true;
      return;
    }
    const quotedId = resolved.quoted?.id ?? null;
    if (
      existing.state === resolved.state &&
      existing.approvalUri === resolved.approvalUri &&
      existing.legacy === resolved.legacy &&
      existing.quotedStatusId === quotedId
    ) {
      return;
    }
    await repo.setState(
      existing,
      // An accepted quote whose approval goes is revoked, not merely rejected (Mastodon's reject!).
      existing.state === "accepted" && resolved.state === "rejected" ? "revoked" : resolved.state,
      {
        approval_uri: resolved.approvalUri,
        legacy: resolved.legacy,
        quoted_status_id: quotedId,
        quoted_account_id: resolved.quoted?.accountId ?? null,
      },
      iso,
      trx,
    );
    changed = true;
    if (resolved.state === "accepted" && existing.state !== "accepted" && resolved.quoted?.local) {
      queueQuoteNotification(jobs, status.id);
    }
  });
  return changed;
}
