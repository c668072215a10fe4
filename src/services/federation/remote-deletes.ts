import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { deleteStatus, releaseStatusMedia, removeStatusPoll } from "../statuses/delete.ts";

export const PURGE_REMOTE_ACCOUNT_JOB = "federation.purge-remote-account";
const PURGE_BATCH = 200;

/**
 * A remote author deleted a post: it becomes a tombstone with its boosts (services/statuses/delete.ts),
 * and its media rows and poll go (remote media have no local originals to keep for a redraft).
 */
export async function deleteRemoteStatus(ctx: AppContext, author: Account, status: Status): Promise<void> {
  if (status.accountId !== author.id || status.deletedAt !== null) return;
  await deleteStatus(ctx, author, status);
  await releaseStatusMedia(ctx, status.id, true);
  await removeStatusPoll(ctx, status);
}

/**
 * A remote account was deleted by its server: the row stays, marked deleted (answered 410, as a
 * local deletion), its follows end both ways now, and its posts are removed by a job, a batch at
 * a time.
 */
export async function deleteRemoteAccount(ctx: AppContext, account: Account): Promise<void> {
  if (account.domain === null) return;
  const now = new Date().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.follows.removeAllOf(account.id, trx);
    await ctx.repos.accounts.update(
      account.id,
      {
        display_name: "",
        note: "",
        fields: "[]",
        also_known_as: "[]",
        avatar_remote_url: null,
        header_remote_url: null,
        suspended_at: account.suspendedAt ?? now,
        suspension_origin: "deleted",
        followers_count: 0,
        following_count: 0,
        updated_at: now,
      },
      trx,
    );
  });
  await ctx.queue.enqueue(
    PURGE_REMOTE_ACCOUNT_JOB,
    { accountId: account.id },
    { dedupeKey: `${PURGE_REMOTE_ACCOUNT_JOB}:${account.id}` },
  );
}

/** The `federation.purge-remote-account` job: deletes a batch of posts, then queues itself again. */
export async function purgeRemoteAccount(ctx: AppContext, payload: { accountId: string }): Promise<void> {
  if (typeof payload?.accountId !== "string") return;
  const account = await ctx.repos.accounts.getById(payload.accountId);
  if (!account || account.domain === null || account.suspensionOrigin !== "deleted") return;
  const batch = await ctx.repos.statuses.liveOf(account.id, PURGE_BATCH);
  for (const status of batch) await deleteRemoteStatus(ctx, account, status);
  if (batch.length === PURGE_BATCH) {
    await ctx.queue.enqueue(PURGE_REMOTE_ACCOUNT_JOB, payload, {
      dedupeKey: `${PURGE_REMOTE_ACCOUNT_JOB}:${account.id}`,
    });
  }
}
