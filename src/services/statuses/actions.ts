import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status, Visibility } from "../../db/repositories/statuses.ts";
import type { User } from "../../db/repositories/users.ts";
import { enqueueDelivery, queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError, forbidden, gone, notFound } from "../../lib/errors.ts";
import { ACCOUNT_LIMITS } from "../../lib/limits.ts";
import { defaultPrivacy } from "../../policies/accounts.ts";
import { canPin, canReblog, reblogVisibility } from "../../policies/statuses.ts";
import { enqueueFanOut } from "../feeds/fan-out.ts";
import { isBlocking } from "../relationships/relationships.ts";
import { deleteStatus } from "./delete.ts";
import { findStatus, findVisibleStatus } from "./find.ts";
import { isVisible } from "./views.ts";

/** A boost acts on the boosted post. */
async function target(ctx: AppContext, id: string, viewerId: string): Promise<Status> {
  const status = await findVisibleStatus(ctx, id, viewerId);
  if (status.reblogOfId === null) return status;
  return findVisibleStatus(ctx, status.reblogOfId, viewerId);
}

/**
 * The status of an undo: the caller's row is removed whether or not they can still see the post,
 * and the post is answered when it still exists and the caller may see it or had acted on it.
 */
async function undoTarget(ctx: AppContext, id: string, viewerId: string, hadRow: (s: Status) => Promise<boolean>) {
  let status = await findStatus(ctx, id);
  if (status?.reblogOfId) status = await findStatus(ctx, status.reblogOfId);
  if (!status) throw notFound();
  const had = await hadRow(status);
  if (status.deletedAt !== null) throw gone();
  if (!had && !(await isVisible(ctx, status, viewerId))) throw notFound();
  return status;
}

export async function favourite(ctx: AppContext, account: Account, id: string): Promise<Status> {
  const status = await target(ctx, id, account.id);
  if (await isBlocking(ctx, account.id, status.accountId)) throw forbidden();
  await transactionWithJobs(ctx, async (trx, jobs) => {
    const row = {
      id: ctx.ids.next(),
      account_id: account.id,
      status_id: status.id,
      created_at: new Date().toISOString(),
    };
    if (await ctx.repos.statusInteractions.add("favourites", row, trx)) {
      await ctx.repos.statuses.addToCounter(status.id, "favourites_count", 1, trx);
      const job = { type: "favourite", statusId: status.id, activityId: row.id, fromAccountId: account.id };
      if (status.accountId !== account.id) jobs.add("notifications.create", job);
      queueDelivery(jobs, { type: "like", accountId: account.id, statusId: status.id, likeId: row.id });
    }
  });
  return (await ctx.repos.statuses.getById(status.id)) ?? status;
}

export async function unfavourite(ctx: AppContext, account: Account, id: string): Promise<Status> {
  const status = await undoTarget(ctx, id, account.id, async (s) => {
    return transactionWithJobs(ctx, async (trx, jobs) => {
      const likeId = await ctx.repos.statusInteractions.take("favourites", account.id, s.id, trx);
      if (likeId === undefined) return false;
      await ctx.repos.statuses.addToCounter(s.id, "favourites_count", -1, trx);
      await ctx.repos.notifications.deleteFrom("favourite", account.id, s.id, trx);
      queueDelivery(jobs, { type: "like.undo", accountId: account.id, statusId: s.id, likeId });
      return true;
    });
  });
  return (await ctx.repos.statuses.getById(status.id)) ?? status;
}

export async function bookmark(ctx: AppContext, account: Account, id: string): Promise<Status> {
  const status = await target(ctx, id, account.id);
  const row = {
    id: ctx.ids.next(),
    account_id: account.id,
    status_id: status.id,
    created_at: new Date().toISOString(),
  };
  await ctx.repos.statusInteractions.add("bookmarks", row);
  return status;
}

export async function unbookmark(ctx: AppContext, account: Account, id: string): Promise<Status> {
  return undoTarget(ctx, id, account.id, (s) => ctx.repos.statusInteractions.remove("bookmarks", account.id, s.id));
}

export async function muteConversation(ctx: AppContext, account: Account, id: string): Promise<Status> {
  const status = await target(ctx, id, account.id);
  await ctx.repos.statusInteractions.muteConversation(ctx.ids.next(), account.id, status.conversationId ?? status.id);
  return status;
}

/**
 * Unmuting needs the post to be visible, as in Mastodon: a mute is per thread, so "had a mute"
 * (the test of the other undos) would show any hidden post of a muted thread to whoever asked.
 */
export async function unmuteConversation(ctx: AppContext, account: Account, id: string): Promise<Status> {
  const status = await target(ctx, id, account.id);
  await ctx.repos.statusInteractions.unmuteConversation(account.id, status.conversationId ?? status.id);
  return status;
}

export async function pin(ctx: AppContext, account: Account, id: string): Promise<Status> {
  const status = await findVisibleStatus(ctx, id, account.id);
  if (status.reblogOfId !== null) throw new ApiError(422, "Validation failed: Boosts cannot be pinned");
  if (status.accountId !== account.id)
    throw new ApiError(422, "Validation failed: Someone else's post cannot be pinned");
  if (!canPin(status, account.id)) {
    throw new ApiError(422, "Validation failed: Posts that are only visible to mentioned users cannot be pinned");
  }
  const already = await ctx.repos.statusInteractions.which("status_pins", account.id, [status.id]);
  if (already.size > 0) return status;
  await ctx.db.transaction().execute(async (trx) => {
    if ((await ctx.repos.statusInteractions.countLivePins(account.id, trx)) >= ACCOUNT_LIMITS.maxPinnedStatuses) {
      throw new ApiError(422, "Validation failed: You have already pinned the maximum number of posts");
    }
    const row = {
      id: ctx.ids.next(),
      account_id: account.id,
      status_id: status.id,
      created_at: new Date().toISOString(),
    };
    await ctx.repos.statusInteractions.add("status_pins", row, trx);
  });
  await enqueueDelivery(ctx, { type: "featured.add", accountId: account.id, statusId: status.id });
  return status;
}

export async function unpin(ctx: AppContext, account: Account, id: string): Promise<Status> {
  return undoTarget(ctx, id, account.id, async (s) => {
    const removed = await ctx.repos.statusInteractions.remove("status_pins", account.id, s.id);
    if (removed) await enqueueDelivery(ctx, { type: "featured.remove", accountId: account.id, statusId: s.id });
    return removed;
  });
}

/** `POST /:id/reblog`: the caller's boost (the existing one when boosted already). */
export async function reblog(
  ctx: AppContext,
  account: Account,
  user: User,
  id: string,
  asked: Visibility | undefined,
): Promise<Status> {
  const original = await target(ctx, id, account.id);
  if (!canReblog(original, account.id) || (await isBlocking(ctx, account.id, original.accountId))) throw forbidden();
  const existing = await ctx.repos.statuses.getReblog(account.id, original.id);
  if (existing) return existing;
  const fallback = defaultPrivacy(account, user);
  const visibility = reblogVisibility(asked ?? (fallback === "direct" ? "private" : fallback), original);
  const newId = ctx.ids.next();
  const iso = new Date().toISOString();
  const uri = `${ctx.config.baseUrl}/users/${account.username}/statuses/${newId}/activity`;
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.statuses.insert(
      {
        id: newId,
        uri,
        url: uri,
        account_id: account.id,
        reblog_of_id: original.id,
        visibility,
        sensitive: false,
        local: true,
        created_at: iso,
        updated_at: iso,
      },
      trx,
    );
    await ctx.repos.statuses.addToCounter(original.id, "reblogs_count", 1, trx);
    if (original.accountId !== account.id) jobs.add("notifications.create", { type: "reblog", statusId: newId });
    await ctx.repos.statuses.addToAccountCount(account.id, 1, iso, trx);
    enqueueFanOut(jobs, newId);
    queueDelivery(jobs, { type: "announce", statusId: newId });
  });
  const created = await ctx.repos.statuses.getById(newId);
  if (!created) throw new Error("the new boost vanished");
  return created;
}

/** `POST /:id/unreblog`: deletes the caller's boost, answering the boosted post. */
export async function unreblog(ctx: AppContext, account: Account, id: string): Promise<Status> {
  return undoTarget(ctx, id, account.id, async (s) => {
    const boost = await ctx.repos.statuses.getReblog(account.id, s.id);
    if (boost) await deleteStatus(ctx, account, boost);
    return boost !== undefined;
  }).then(async (s) => (await ctx.repos.statuses.getById(s.id)) ?? s);
}
