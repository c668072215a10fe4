import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { enqueueDelivery, queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { unprocessable } from "../../lib/errors.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { getVisibleAccount } from "../accounts/find-accounts.ts";
import { clearListsOnMute, removeFromListsOnBlock } from "../lists/lists.ts";
import { relationshipJson } from "./relationships.ts";

/** The account acted on: 404 when missing or hidden, 410 when deleted; yourself is a 422. */
async function targetOf(ctx: AppContext, account: Account, id: string, verb: "block" | "mute"): Promise<Account> {
  const target = await getVisibleAccount(ctx, id);
  if (target.id === account.id) throw unprocessable(`Validation failed: You cannot ${verb} yourself`);
  return target;
}

/**
 * `POST /api/v1/accounts/:id/block`, as Mastodon: the follows and follow requests between the two
 * accounts end both ways (uncounted), each one's posts leave the other's home feed, and the notifications the blocked account
 * caused the blocker and the blocker's conversations with it are deleted. Blocking again changes nothing more.
 */
export async function block(ctx: AppContext, account: Account, id: string): Promise<Record<string, unknown>> {
  const target = await targetOf(ctx, account, id, "block");
  const repo = ctx.repos.relationships;
  const blockId = ctx.ids.next();
  await transactionWithJobs(ctx, async (trx, jobs) => {
    // Serialised with a concurrent follow or acceptance between the two (FollowsRepository.lockPair).
    await ctx.repos.follows.lockPair(account.id, target.id, trx);
    const uri = `${ctx.config.baseUrl}/${randomUUID()}`;
    const added = await repo.insertBlock(
      { id: blockId, account_id: account.id, target_account_id: target.id, uri, created_at: new Date().toISOString() },
      trx,
    );
    if (added && target.domain !== null) {
      queueDelivery(jobs, { type: "block", accountId: account.id, targetId: target.id, uri });
    }
    await ctx.repos.follows.severBetween(account.id, target.id, trx);
    await repo.clearFromFeed(account.id, target.id, trx);
    await repo.clearFromFeed(target.id, account.id, trx);
    await removeFromListsOnBlock(ctx, account.id, target.id, trx);
    await repo.deleteNotificationsFrom(account.id, target.id, trx);
    // The blocker's direct conversations with the blocked account go (Mastodon's AfterBlockService).
    await ctx.repos.conversations.deleteWithParticipant(account.id, target.id, trx);
  });
  return relationshipJson(ctx, account.id, target.id);
}

/** `POST /api/v1/accounts/:id/unblock`: succeeds whether or not there was a block. */
export async function unblock(ctx: AppContext, account: Account, id: string): Promise<Record<string, unknown>> {
  const target = await getVisibleAccount(ctx, id);
  const removed = await ctx.repos.relationships.deleteBlock(account.id, target.id);
  if (removed?.uri && target.domain !== null) {
    await enqueueDelivery(ctx, { type: "block.undo", accountId: account.id, targetId: target.id, uri: removed.uri });
  }
  return relationshipJson(ctx, account.id, target.id);
}

export interface MuteOptions {
  /** Also hide their notifications (default true). */
  notifications: boolean;
  /** Seconds until the mute ends; 0 is forever. */
  duration: number;
}

/**
 * `POST /api/v1/accounts/:id/mute`: their posts and boosts leave the muter's home feed; muting
 * again updates `notifications` and the expiry, as Mastodon does. Follows are kept.
 */
export async function mute(
  ctx: AppContext,
  account: Account,
  id: string,
  opts: MuteOptions,
): Promise<Record<string, unknown>> {
  const target = await targetOf(ctx, account, id, "mute");
  const now = new Date();
  const repo = ctx.repos.relationships;
  await ctx.db.transaction().execute(async (trx) => {
    await repo.upsertMute(
      {
        id: ctx.ids.next(now),
        account_id: account.id,
        target_account_id: target.id,
        hide_notifications: opts.notifications,
        expires_at: opts.duration > 0 ? new Date(now.getTime() + opts.duration * 1000).toISOString() : null,
        created_at: now.toISOString(),
      },
      trx,
    );
    await repo.clearFromFeed(account.id, target.id, trx);
    await clearListsOnMute(ctx, account.id, target.id, trx);
  });
  return relationshipJson(ctx, account.id, target.id);
}

/** `POST /api/v1/accounts/:id/unmute`: succeeds whether or not there was a mute. */
export async function unmute(ctx: AppContext, account: Account, id: string): Promise<Record<string, unknown>> {
  const target = await getVisibleAccount(ctx, id);
  await ctx.repos.relationships.deleteMute(account.id, target.id);
  return relationshipJson(ctx, account.id, target.id);
}

/**
 * One page of the accounts the account blocks, latest first: the page as read (`rows`, for its
 * links) and the accounts of it that still exist, in that order.
 */
export async function blockedAccountsPage(
  ctx: AppContext,
  accountId: string,
  window: IdWindow,
): Promise<{ rows: { id: string }[]; accounts: Account[] }> {
  const rows = await ctx.repos.relationships.blocksPage(accountId, window);
  const found = new Map((await ctx.repos.accounts.getByIds(rows.map((r) => r.targetAccountId))).map((a) => [a.id, a]));
  return { rows, accounts: rows.flatMap((r) => found.get(r.targetAccountId) ?? []) };
}

/**
 * One page of the accounts the account mutes (expired mutes left out), latest first: the page as
 * read (`rows`, for its links) and the muted accounts that still exist, each with when its mute ends.
 */
export async function mutedAccountsPage(
  ctx: AppContext,
  accountId: string,
  window: IdWindow,
): Promise<{ rows: { id: string }[]; muted: { account: Account; expiresAt: string | null }[] }> {
  const rows = await ctx.repos.relationships.mutesPage(accountId, window, new Date().toISOString());
  const found = new Map((await ctx.repos.accounts.getByIds(rows.map((r) => r.targetAccountId))).map((a) => [a.id, a]));
  const muted = rows.flatMap((r) => {
    const account = found.get(r.targetAccountId);
    return account ? [{ account, expiresAt: r.expiresAt }] : [];
  });
  return { rows, muted };
}
