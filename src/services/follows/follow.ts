import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { FollowOptions } from "../../db/repositories/follows.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import { getVisibleAccount } from "../accounts/find-accounts.ts";
import { enqueueMerge } from "../feeds/merge.ts";
import { removeFromListsOnUnfollow } from "../lists/lists.ts";
import { blockMuteRelations, relationshipJson } from "../relationships/relationships.ts";

export type { FollowOptions } from "../../db/repositories/follows.ts";

const NOTIFY_JOB = "notifications.create";

/**
 * `POST /api/v1/accounts/:id/follow`, as Mastodon's FollowService. Following again (or asking
 * again) changes only the options given. A locked account, a remote one (until federation
 * delivers the request and its answer) and any account followed by a silenced one get a follow
 * request and, when local, a `follow_request` notification; otherwise the follow starts at once,
 * the followed account gets a `follow` notification, and a job back-fills the follower's home.
 * Yourself, a suspended account or an unknown one is a 404 (Mastodon's RecordNotFound); an
 * account that blocks you, that you block, whose domain you block, or that moved away is a 403.
 */
export async function follow(
  ctx: AppContext,
  account: Account,
  id: string,
  opts: FollowOptions,
): Promise<Record<string, unknown>> {
  const target = await getVisibleAccount(ctx, id);
  if (target.id === account.id || target.suspendedAt !== null) throw notFound();
  const rel = await blockMuteRelations(ctx, account.id, [target.id]);
  if (
    rel.blocking.has(target.id) ||
    rel.blockedBy.has(target.id) ||
    rel.domainBlocking.has(target.id) ||
    target.movedToAccountId !== null
  ) {
    throw forbidden();
  }
  const repo = ctx.repos.follows;
  await transactionWithJobs(ctx, async (trx, jobs) => {
    // Serialised with a concurrent block between the two (which would otherwise miss this follow).
    await repo.lockPair(account.id, target.id, trx);
    if (await repo.blockedEitherWay(account.id, target.id, trx)) throw forbidden();
    const existing = await repo.getFollow(account.id, target.id, trx);
    if (existing) return repo.updateOptions("follows", existing.id, opts, trx);
    const pending = await repo.getRequest(account.id, target.id, trx);
    if (pending) return repo.updateOptions("follow_requests", pending.id, opts, trx);
    const now = new Date();
    const rowId = ctx.ids.next(now);
    const row = {
      id: rowId,
      account_id: account.id,
      target_account_id: target.id,
      show_reblogs: opts.showReblogs ?? true,
      notify: opts.notify ?? false,
      languages: opts.languages ?? null,
      created_at: now.toISOString(),
    };
    const asRequest = target.locked || target.domain !== null || account.silencedAt !== null;
    if (asRequest) {
      // A remote account's follow waits for its server's Accept, matched by the Follow's id.
      const uri = target.domain === null ? null : `${ctx.config.baseUrl}/${randomUUID()}`;
      if (!(await repo.insertRequest({ ...row, uri }, trx))) return;
      if (uri !== null) {
        queueDelivery(jobs, { type: "follow", accountId: account.id, targetId: target.id, uri });
      } else {
        jobs.add(NOTIFY_JOB, { type: "follow_request", activityId: rowId, fromAccountId: account.id });
      }
      return;
    }
    if (!(await repo.insert({ ...row, uri: `${ctx.config.baseUrl}/${randomUUID()}` }, trx))) return;
    jobs.add(NOTIFY_JOB, { type: "follow", activityId: rowId, fromAccountId: account.id });
    enqueueMerge(jobs, account.id, target.id);
  });
  return relationshipJson(ctx, account.id, target.id);
}

/**
 * `POST /api/v1/accounts/:id/unfollow`: ends the follow or withdraws the request (either way
 * the notification it caused goes), and takes the account's posts out of the home feed
 * (Mastodon's unmerge). Succeeds when there was nothing to undo.
 */
export async function unfollow(ctx: AppContext, account: Account, id: string): Promise<Record<string, unknown>> {
  const target = await getVisibleAccount(ctx, id);
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.follows.lockPair(account.id, target.id, trx);
    const removed = await ctx.repos.follows.delete(account.id, target.id, trx);
    if (removed) {
      await ctx.repos.feeds.unmerge(account.id, target.id, trx);
      // The membership ends with the follow (Mastodon); its posts leave the list timelines too.
      await removeFromListsOnUnfollow(ctx, account.id, target.id, trx);
    }
    const request = await ctx.repos.follows.deleteRequest(account.id, target.id, trx);
    const uri = removed?.uri ?? request?.uri;
    if (target.domain !== null && uri) {
      queueDelivery(jobs, { type: "follow.undo", accountId: account.id, targetId: target.id, uri });
    }
  });
  return relationshipJson(ctx, account.id, target.id);
}

/**
 * `POST /api/v1/accounts/:id/remove_from_followers`: ends that account's follow of the caller
 * (their feed is left as it is, as Mastodon does). Succeeds when it did not follow.
 */
export async function removeFromFollowers(
  ctx: AppContext,
  account: Account,
  id: string,
): Promise<Record<string, unknown>> {
  const follower = await getVisibleAccount(ctx, id);
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.follows.lockPair(follower.id, account.id, trx);
    const removed = await ctx.repos.follows.delete(follower.id, account.id, trx);
    // A remote follower's server is told with a Reject of its Follow, as Mastodon does.
    if (removed && follower.domain !== null) {
      queueDelivery(jobs, { type: "follow.reject", accountId: account.id, followerId: follower.id, uri: removed.uri });
    }
  });
  return relationshipJson(ctx, account.id, follower.id);
}

/**
 * Turns `requester`'s pending request to `targetId` into a follow with its options, and queues
 * the back-fill of the requester's home; false when there was no request. (Also used when a
 * remote account accepts a local account's request: federation/inbox/accept.ts.)
 */
export async function acceptRequest(ctx: AppContext, targetId: string, requester: Account): Promise<boolean> {
  return transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.follows.lockPair(requester.id, targetId, trx);
    const request = await ctx.repos.follows.deleteRequest(requester.id, targetId, trx);
    if (!request) return false;
    if (requester.domain !== null) {
      queueDelivery(jobs, { type: "follow.accept", accountId: targetId, followerId: requester.id, uri: request.uri });
    }
    const now = new Date();
    const added = await ctx.repos.follows.insert(
      {
        id: ctx.ids.next(now),
        account_id: requester.id,
        target_account_id: targetId,
        show_reblogs: request.showReblogs,
        notify: request.notify,
        languages: request.languages,
        // A remote follower's Follow keeps its own id; a local one gets one here.
        uri: request.uri ?? `${ctx.config.baseUrl}/${randomUUID()}`,
        created_at: now.toISOString(),
      },
      trx,
    );
    if (added && requester.domain === null) enqueueMerge(jobs, requester.id, targetId);
    return true;
  });
}

/**
 * `POST /api/v1/follow_requests/:account_id/authorize`: the request becomes a follow with its
 * options; the follower's home is back-filled. Nobody is notified (Mastodon), and the
 * `follow_request` notification goes with the request. No pending request is a 404.
 */
export async function authorizeFollowRequest(
  ctx: AppContext,
  account: Account,
  id: string,
): Promise<Record<string, unknown>> {
  const requester = await getVisibleAccount(ctx, id);
  if (!(await acceptRequest(ctx, account.id, requester))) throw notFound();
  return relationshipJson(ctx, account.id, requester.id);
}

export const AUTHORIZE_ALL_JOB = "follows.authorize-all";

/** Queues the acceptance of every pending request of an account that was just unlocked. */
export async function enqueueAuthorizeAll(ctx: AppContext, accountId: string): Promise<void> {
  await ctx.queue.enqueue(AUTHORIZE_ALL_JOB, { accountId }, { dedupeKey: `${AUTHORIZE_ALL_JOB}:${accountId}` });
}

/**
 * The `follows.authorize-all` job: an account that is no longer locked accepts all its pending
 * requests, as Mastodon does when a profile is unlocked. Nothing happens if it was locked again.
 */
export async function authorizeAllFollowRequests(ctx: AppContext, payload: { accountId: string }): Promise<void> {
  if (typeof payload?.accountId !== "string") return;
  const account = await ctx.repos.accounts.getById(payload.accountId);
  if (!account || account.locked) return;
  for (;;) {
    const rows = await ctx.repos.followPages.requestsPage(account.id, { limit: 100 });
    if (rows.length === 0) return;
    const requesters = await ctx.repos.accounts.getByIds(rows.map((r) => r.accountId));
    for (const requester of requesters) await acceptRequest(ctx, account.id, requester);
  }
}

/** `POST /api/v1/follow_requests/:account_id/reject`: drops the request; none pending is a 404. */
export async function rejectFollowRequest(
  ctx: AppContext,
  account: Account,
  id: string,
): Promise<Record<string, unknown>> {
  const requester = await getVisibleAccount(ctx, id);
  await transactionWithJobs(ctx, async (trx, jobs) => {
    const request = await ctx.repos.follows.deleteRequest(requester.id, account.id, trx);
    if (!request) throw notFound();
    if (requester.domain !== null) {
      queueDelivery(jobs, { type: "follow.reject", accountId: account.id, followerId: requester.id, uri: request.uri });
    }
  });
  return relationshipJson(ctx, account.id, requester.id);
}
