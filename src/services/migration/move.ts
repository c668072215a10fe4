import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { enqueueDelivery } from "../../federation/deliveries.ts";
import { ApiError } from "../../lib/errors.ts";
import { resolveAcct } from "../accounts/resolve.ts";
import { follow } from "../follows/follow.ts";

/**
 * The account `acct` names, its actor fetched again when remote: an alias or a move must see the
 * actor as it is now (its owner has just listed this account as an alias), so the fetch is
 * signed by `account` and skips the document cache.
 */
async function freshAccount(ctx: AppContext, account: Account, acct: string): Promise<Account> {
  const found = await resolveAcct(ctx, acct);
  if (!found) throw new ApiError(404, `cannot find ${acct}`);
  if (found.domain === null) return found;
  const { refetchActor } = await import("../../federation/resolve/refetch.ts");
  return (await refetchActor(ctx, account, found)) ?? found;
}

/** The account's aliases (`alsoKnownAs`, as actor URIs). */
export function listAliases(account: Account): string[] {
  return account.alsoKnownAs;
}

/**
 * Adds or removes an alias (Mastodon's AccountAlias: the account another one moves from must
 * list it before the move is accepted). The new list reaches remote followers in an Update.
 */
export async function changeAliases(
  ctx: AppContext,
  account: Account,
  change: { add?: string[]; remove?: string[] },
): Promise<string[]> {
  const aliases = new Set(account.alsoKnownAs);
  for (const acct of change.add ?? []) {
    const target = await freshAccount(ctx, account, acct);
    if (target.id === account.id) throw new ApiError(422, "an account cannot be its own alias");
    aliases.add(target.uri);
  }
  for (const acct of change.remove ?? []) {
    const known = await resolveAcct(ctx, acct);
    aliases.delete(known?.uri ?? acct);
  }
  const list = [...aliases];
  await ctx.repos.accounts.update(account.id, {
    also_known_as: JSON.stringify(list),
    updated_at: new Date().toISOString(),
  });
  await enqueueDelivery(ctx, { type: "actor.update", accountId: account.id });
  return list;
}

/** How many local followers are moved along at most (each becomes a follow of the new account). */
const MAX_LOCAL_FOLLOWERS = 10_000;

/**
 * Moves a local account to `acct` (Mastodon's MoveService): the target must list this account
 * among its aliases; the account is marked moved, its remote followers get a Move (their servers
 * follow the new account), and its local followers follow the new account here.
 */
export async function moveAccount(
  ctx: AppContext,
  account: Account,
  acct: string,
): Promise<{ target: Account; localFollowers: number }> {
  const target = await freshAccount(ctx, account, acct);
  if (target.id === account.id) throw new ApiError(422, "an account cannot move to itself");
  if (target.movedToAccountId !== null) throw new ApiError(422, `${acct} has moved away itself`);
  if (!target.alsoKnownAs.includes(account.uri)) {
    throw new ApiError(422, `${acct} does not list ${account.uri} among its aliases (alsoKnownAs)`);
  }
  const now = new Date().toISOString();
  await ctx.repos.accounts.update(account.id, { moved_to_account_id: target.id, updated_at: now });
  await enqueueDelivery(ctx, { type: "move", accountId: account.id, targetUri: target.uri });
  let localFollowers = 0;
  for (const followerId of await ctx.repos.delivery.localFollowers(account.id, MAX_LOCAL_FOLLOWERS)) {
    const follower = await ctx.repos.accounts.getById(followerId);
    if (!follower || follower.id === target.id) continue;
    try {
      await follow(ctx, follower, target.id, {});
      localFollowers += 1;
    } catch (e) {
      // A follower who blocks the new account (or is blocked by it) stays behind, as in Mastodon.
      if (!(e instanceof ApiError)) throw e;
    }
  }
  return { target, localFollowers };
}
