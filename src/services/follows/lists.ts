import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { AccountPageRow } from "../../db/repositories/follow-pages.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { getVisibleAccount } from "../accounts/find-accounts.ts";
import { accountsJson } from "../accounts/views.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";

/** A page of accounts: their JSON, and the row ids (follow or request ids) that page them. */
export interface AccountsPage {
  json: Record<string, unknown>[];
  rows: AccountPageRow[];
}

async function pageJson(ctx: AppContext, rows: AccountPageRow[]): Promise<AccountsPage> {
  const found = new Map((await ctx.repos.accounts.getByIds(rows.map((r) => r.accountId))).map((a) => [a.id, a]));
  const accounts = rows.flatMap((r) => found.get(r.accountId) ?? []);
  return { json: await accountsJson(ctx, accounts), rows };
}

/**
 * `GET /api/v1/accounts/:id/followers` and `/following`, as Mastodon: an empty page (not an
 * error) when the account is suspended, hides its network (`hide_collections`) from anyone but
 * itself, or blocks the viewer; otherwise paged by follow id, leaving out the accounts the viewer
 * blocks, mutes or is blocked by (the owner sees all of theirs).
 */
export async function followAccountsPage(
  ctx: AppContext,
  side: "followers" | "following",
  id: string,
  viewer: Account | undefined,
  window: IdWindow,
): Promise<AccountsPage> {
  const account = await getVisibleAccount(ctx, id);
  const empty: AccountsPage = { json: [], rows: [] };
  if (account.suspendedAt !== null) return empty;
  const own = viewer?.id === account.id;
  if (account.hideCollections === true && !own) return empty;
  if (viewer && !own && (await blockMuteRelations(ctx, viewer.id, [account.id])).blockedBy.has(account.id)) {
    return empty;
  }
  const rows = await ctx.repos.followPages.page(side, account.id, window, viewer && !own ? viewer.id : undefined);
  return pageJson(ctx, rows);
}

/** `GET /api/v1/follow_requests`: the requests the account received, paged by request id. */
export async function followRequestsPage(ctx: AppContext, account: Account, window: IdWindow): Promise<AccountsPage> {
  return pageJson(ctx, await ctx.repos.followPages.requestsPage(account.id, window));
}

/**
 * `GET /api/v1/accounts/familiar_followers`: for each existing, unsuspended account among `ids`,
 * the accounts the viewer follows that follow it; none for an account hiding its network.
 */
export async function familiarFollowersJson(
  ctx: AppContext,
  viewerId: string,
  ids: readonly string[],
): Promise<Record<string, unknown>[]> {
  const wanted = [...new Set(ids.filter(isId))];
  const found = new Map(
    (await ctx.repos.accounts.getPublicByIds(wanted)).filter((a) => a.suspendedAt === null).map((a) => [a.id, a]),
  );
  const targets = wanted.flatMap((id) => found.get(id) ?? []);
  const open = targets.filter((a) => a.hideCollections !== true);
  const familiar = await ctx.repos.followPages.familiarFollowers(
    viewerId,
    open.map((a) => a.id),
  );
  const familiarIds = [...new Set([...familiar.values()].flat())];
  const accounts = await ctx.repos.accounts.getByIds(familiarIds);
  const json = await accountsJson(ctx, accounts);
  const jsonById = new Map(accounts.map((a, i) => [a.id, json[i]]));
  return targets.map((t) => ({
    id: t.id,
    accounts: t.hideCollections === true ? [] : (familiar.get(t.id) ?? []).flatMap((id) => jsonById.get(id) ?? []),
  }));
}
