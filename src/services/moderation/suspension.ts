import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { DB } from "../../db/schema.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { deleteLocalAccount } from "../admin/delete-local-account.ts";
import { deleteRemoteAccount } from "../federation/remote-deletes.ts";
import { deleteStatus, releaseStatusMedia, removeStatusPoll } from "../statuses/delete.ts";
import { accessTokenChannel, publishAll } from "../streaming/channels.ts";
import { canonicalEmailHash } from "./sign-up-blocks.ts";

/** The job that deletes a suspended account's data for good (DELETE, or the scheduled purge). */
export const PURGE_SUSPENDED_JOB = "moderation.purge-suspended-account";
const PURGE_BATCH = 200;
const DAY_MS = 86_400_000;

/**
 * Suspends an account here (origin `local`), in the action's transaction. Nothing is deleted:
 * the account just stops being shown or heard (the read side honours `suspended_at`), its tokens
 * and sessions stop working, and `unsuspend` gives everything back. A local account's followers'
 * servers get an `Update` of the actor carrying `suspended: true` and an empty profile, as
 * Mastodon federates a suspension, and its e-mail address is blocked from signing up again (a
 * canonical e-mail block naming the account); a remote account's activities are refused from now on.
 */
export async function markSuspended(
  ctx: AppContext,
  account: Account,
  trx: Kysely<DB>,
  jobs: JobBatch,
  /** A local account's e-mail address (read before the transaction). */
  email: string | undefined,
): Promise<void> {
  const now = new Date().toISOString();
  await ctx.repos.accounts.update(
    account.id,
    { suspended_at: account.suspendedAt ?? now, suspension_origin: "local", updated_at: now },
    trx,
  );
  if (account.domain !== null) return;
  queueDelivery(jobs, { type: "actor.update", accountId: account.id });
  // As Mastodon, the address cannot sign up again while the suspension lasts.
  if (email) {
    await ctx.repos.accountModeration.blockCanonicalEmail(
      { id: ctx.ids.next(), hash: canonicalEmailHash(email), accountId: account.id, at: now },
      trx,
    );
  }
}

/** After a suspension committed: the streaming connections of a local account's tokens close. */
export async function closeStreams(ctx: AppContext, account: Account): Promise<void> {
  if (account.domain !== null) return;
  const user = await ctx.repos.users.getByAccountId(account.id);
  if (!user) return;
  const tokens = await ctx.repos.accountModeration.liveTokenIds(user.id);
  await publishAll(
    ctx,
    tokens.map((id) => accessTokenChannel(id)),
    "kill",
    null,
  );
}

/**
 * Lifts a local suspension, in the undo's transaction: the account is as it was (its posts,
 * followers and follows were never removed). Followers' servers get the whole actor again, and
 * the canonical e-mail block the suspension added goes.
 */
export async function markUnsuspended(
  ctx: AppContext,
  account: Account,
  trx: Kysely<DB>,
  jobs: JobBatch,
): Promise<void> {
  const now = new Date().toISOString();
  await ctx.repos.accounts.update(account.id, { suspended_at: null, suspension_origin: null, updated_at: now }, trx);
  if (account.domain !== null) return;
  queueDelivery(jobs, { type: "actor.update", accountId: account.id });
  await ctx.repos.accountModeration.unblockCanonicalEmailsOf(account.id, trx);
}

/** Whether an account's data may be deleted now: it is suspended (here or by its server) and not deleted yet. */
export function purgeable(account: Account): boolean {
  return (
    account.suspendedAt !== null && (account.suspensionOrigin === "local" || account.suspensionOrigin === "remote")
  );
}

/** Queues the deletion of a suspended account's data (the job does it, a batch at a time). */
export async function queuePurge(ctx: AppContext, accountId: string): Promise<void> {
  await ctx.queue.enqueue(PURGE_SUSPENDED_JOB, { accountId }, { dedupeKey: `${PURGE_SUSPENDED_JOB}:${accountId}` });
}

/**
 * The `moderation.purge-suspended-account` job. A suspended account loses its data for good, as
 * Mastodon's DeleteAccountService with its name reserved: the row stays (marked deleted, so the
 * name is never handed out again), its profile, follows both ways, user, posts, media and polls
 * go. A local account's `Delete` goes to the servers known here; its posts are removed a batch
 * at a time (the job queues itself again). A remote account's posts are removed by the remote
 * deletion's own job.
 */
export async function purgeSuspendedAccount(ctx: AppContext, payload: { accountId: string }): Promise<void> {
  if (typeof payload?.accountId !== "string") return;
  const account = await ctx.repos.accounts.getById(payload.accountId);
  if (!account) return;
  if (purgeable(account)) {
    if (account.domain !== null) {
      await deleteRemoteAccount(ctx, account);
      return;
    }
    const user = await ctx.repos.users.getByAccountId(account.id);
    // The moderator's decision (or the scheduled purge's suspension) is in the log already.
    if (user) await deleteLocalAccount(ctx, { account, user }, null);
    else {
      await ctx.repos.accounts.update(account.id, {
        suspension_origin: "deleted",
        updated_at: new Date().toISOString(),
      });
    }
  }
  const current = await ctx.repos.accounts.getById(account.id);
  if (!current || current.domain !== null || current.suspensionOrigin !== "deleted") return;
  const batch = await ctx.repos.statuses.liveOf(current.id, PURGE_BATCH);
  for (const status of batch) {
    await deleteStatus(ctx, current, status);
    await releaseStatusMedia(ctx, status.id, true);
    await removeStatusPoll(ctx, status);
  }
  if (batch.length === PURGE_BATCH) {
    await ctx.queue.enqueue(PURGE_SUSPENDED_JOB, payload, { dedupeKey: `${PURGE_SUSPENDED_JOB}:${current.id}` });
  }
}

/**
 * The scheduled purge: accounts suspended here longer than SUSPENSION_PURGE_DELAY_DAYS get their
 * data deleted (a job each). Answers how many were queued.
 */
export async function queueDueSuspensionPurges(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ctx.config.suspensionPurgeDelayDays * DAY_MS).toISOString();
  const ids = await ctx.repos.accountModeration.locallySuspendedBefore(cutoff, 500);
  for (const id of ids) await queuePurge(ctx, id);
  return ids.length;
}
