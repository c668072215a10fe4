import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { List, RepliesPolicy } from "../../db/repositories/lists.ts";
import type { DB } from "../../db/schema.ts";
import { notFound, unprocessable } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";

export type { RepliesPolicy } from "../../db/repositories/lists.ts";

/** List timelines keep their newest entries only, as home feeds (Mastodon's cap). */
export const LIST_FEED_CAP = 800;
/** How many of a member's newest statuses are back-filled when they are added (Mastodon: a quarter of the cap). */
export const LIST_BACKFILL_LIMIT = LIST_FEED_CAP / 4;

/** Mastodon's limit of lists per account. */
export const LISTS_PER_ACCOUNT = 50;
/** A Gannet bound on titles (Mastodon sets none). */
export const LIST_TITLE_MAX = 1000;

export const REPLIES_POLICIES: readonly RepliesPolicy[] = ["followed", "list", "none"];

/** What a create or update request asks for; undefined means "not given". */
export interface ListParams {
  title?: string;
  repliesPolicy?: RepliesPolicy;
  exclusive?: boolean;
}

/** The account's lists. */
export function ownLists(ctx: AppContext, ownerId: string): Promise<List[]> {
  return ctx.repos.lists.listsOf(ownerId);
}

/**
 * One page of a list's members, newest first (all of them when `window` is null): the page as
 * read (`rows`, for its links) and the member accounts that still exist, in that order.
 */
export async function listMembersPage(
  ctx: AppContext,
  list: List,
  window: IdWindow | null,
): Promise<{ rows: { id: string }[]; accounts: Account[] }> {
  const rows = await ctx.repos.lists.membersPage(list.id, window);
  const found = new Map((await ctx.repos.accounts.getByIds(rows.map((r) => r.accountId))).map((a) => [a.id, a]));
  return { rows, accounts: rows.flatMap((r) => found.get(r.accountId) ?? []) };
}

/** One of the caller's lists: 404 for anyone else's, as Mastodon. */
export async function getOwnedList(ctx: AppContext, ownerId: string, id: string): Promise<List> {
  if (!isId(id)) throw notFound();
  const list = await ctx.repos.lists.getOwned(ownerId, id);
  if (!list) throw notFound();
  return list;
}

/** `POST /api/v1/lists`: at most `LISTS_PER_ACCOUNT` lists, a title is required. */
export async function createList(ctx: AppContext, owner: Account, p: ListParams): Promise<List> {
  if (p.title === undefined || p.title.trim() === "") throw unprocessable("Validation failed: Title can't be blank");
  const id = ctx.ids.next();
  await ctx.db.transaction().execute(async (trx) => {
    if ((await ctx.repos.lists.countOf(owner.id, trx)) >= LISTS_PER_ACCOUNT) {
      throw unprocessable("Validation failed: You have reached the maximum number of lists");
    }
    await ctx.repos.lists.insert(
      {
        id,
        account_id: owner.id,
        title: p.title as string,
        replies_policy: p.repliesPolicy ?? "list",
        exclusive: p.exclusive ?? false,
        created_at: new Date().toISOString(),
      },
      trx,
    );
  });
  return getOwnedList(ctx, owner.id, id);
}

/**
 * `PUT /api/v1/lists/:id`: changes what is given. As in Mastodon, a change of `replies_policy` or
 * `exclusive` applies to what is posted from then on; what the feeds hold stays.
 */
export async function updateList(ctx: AppContext, owner: Account, id: string, p: ListParams): Promise<List> {
  const list = await getOwnedList(ctx, owner.id, id);
  if (p.title !== undefined && p.title.trim() === "") throw unprocessable("Validation failed: Title can't be blank");
  await ctx.repos.lists.update(list.id, {
    ...(p.title !== undefined ? { title: p.title } : {}),
    ...(p.repliesPolicy !== undefined ? { replies_policy: p.repliesPolicy } : {}),
    ...(p.exclusive !== undefined ? { exclusive: p.exclusive } : {}),
    updated_at: new Date().toISOString(),
  });
  return getOwnedList(ctx, owner.id, id);
}

/** `DELETE /api/v1/lists/:id`: the list, its members and its timeline. */
export async function deleteList(ctx: AppContext, owner: Account, id: string): Promise<void> {
  const list = await getOwnedList(ctx, owner.id, id);
  await ctx.db.transaction().execute((trx) => ctx.repos.lists.delete(list.id, trx));
}

/** The accounts among `ids` (deduplicated): 404 when any does not exist, as Mastodon's `Account.find`. */
async function existingAccounts(ctx: AppContext, ids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  if (wanted.some((id) => !isId(id))) throw notFound();
  const found = new Set((await ctx.repos.accounts.getByIds(wanted)).map((a) => a.id));
  if (wanted.some((id) => !found.has(id))) throw notFound();
  return wanted;
}

/**
 * `POST /api/v1/lists/:id/accounts`: adds `accountIds`, all or none, as Mastodon: each must be
 * followed by the owner (or be the owner) and not on the list yet (422 otherwise). Each one's
 * recent statuses are back-filled into the list timeline in the same transaction.
 */
export async function addAccounts(
  ctx: AppContext,
  owner: Account,
  listId: string,
  ids: readonly string[],
): Promise<void> {
  const list = await getOwnedList(ctx, owner.id, listId);
  const accountIds = await existingAccounts(ctx, ids);
  if (accountIds.length === 0) return;
  const repo = ctx.repos.lists;
  await ctx.db.transaction().execute(async (trx) => {
    const already = await repo.membersAmong(list.id, accountIds, trx);
    const follows = await repo.followsOf(owner.id, accountIds, trx);
    for (const accountId of accountIds) {
      if (already.has(accountId)) throw unprocessable("Validation failed: Account is already on the list");
      const followId = follows.get(accountId) ?? null;
      if (followId === null && accountId !== owner.id) {
        throw unprocessable("Validation failed: Account must be a followed account");
      }
      // Two concurrent adds both pass the check above; the unique index settles it (a 422, not a 500).
      const added = await repo.insertMember(
        { id: ctx.ids.next(), list_id: list.id, account_id: accountId, follow_id: followId },
        trx,
      );
      if (!added) throw unprocessable("Validation failed: Account is already on the list");
    }
    for (const accountId of accountIds) await repo.backfill(list.id, accountId, LIST_BACKFILL_LIMIT, trx);
    await repo.trimList(list.id, LIST_FEED_CAP, trx);
  });
}

/** `DELETE /api/v1/lists/:id/accounts`: takes accounts off, with their statuses; unknown ones are ignored. */
export async function removeAccounts(
  ctx: AppContext,
  owner: Account,
  listId: string,
  ids: readonly string[],
): Promise<void> {
  const list = await getOwnedList(ctx, owner.id, listId);
  const accountIds = [...new Set(ids.filter(isId))];
  await ctx.db.transaction().execute((trx) => ctx.repos.lists.removeMembers(list.id, accountIds, trx));
}

/** `GET /api/v1/accounts/:id/lists`: the caller's lists holding the account (none for a suspended one). */
export async function listsContaining(ctx: AppContext, owner: Account, accountId: string): Promise<List[]> {
  if (!isId(accountId)) throw notFound();
  const account = await ctx.repos.accounts.getById(accountId);
  if (!account) throw notFound();
  if (account.suspendedAt !== null) return [];
  return ctx.repos.lists.listsContaining(owner.id, account.id);
}

/**
 * For the follow endpoints: when `ownerId` stops following `targetId`, the target leaves every
 * list of the owner and its statuses leave those timelines, as Mastodon. Pass the transaction
 * of the unfollow as `db` (the membership's follow reference also cascades on delete).
 */
export async function removeFromListsOnUnfollow(
  ctx: AppContext,
  ownerId: string,
  targetId: string,
  db: Kysely<DB> = ctx.db,
): Promise<void> {
  await ctx.repos.lists.removeFromOwnersLists(ownerId, targetId, db);
}

/**
 * For a block (in its transaction): the follows end both ways, so each leaves the other's lists;
 * and what the blocked account posted, boosted or was mentioned in leaves the blocker's list
 * timelines, as Mastodon's `clear_from_lists`.
 */
export async function removeFromListsOnBlock(
  ctx: AppContext,
  blockerId: string,
  targetId: string,
  db: Kysely<DB>,
): Promise<void> {
  await ctx.repos.lists.removeFromOwnersLists(blockerId, targetId, db);
  await ctx.repos.lists.removeFromOwnersLists(targetId, blockerId, db);
  await ctx.repos.lists.clearFromOwnersListFeeds(blockerId, targetId, db);
}

/** For a mute (in its transaction): the muted account's statuses leave the muter's list timelines. */
export async function clearListsOnMute(
  ctx: AppContext,
  muterId: string,
  targetId: string,
  db: Kysely<DB>,
): Promise<void> {
  await ctx.repos.lists.clearFromOwnersListFeeds(muterId, targetId, db);
}
