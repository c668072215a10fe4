import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";
import { canSeeStatus } from "../../policies/statuses.ts";

/** How many posts a profile page shows. */
const PROFILE_POSTS = 20;

/** A local account anyone may see (confirmed, approved, not suspended or deleted). */
export async function publicLocalAccount(ctx: AppContext, username: string): Promise<Account | undefined> {
  const account = await ctx.repos.accounts.getByUsername(username, null);
  if (!account || account.suspendedAt !== null || isAccountDeleted(account)) return undefined;
  return isAccountPublic(account, await ctx.repos.users.getByAccountId(account.id)) ? account : undefined;
}

/** What a profile page shows to anyone: the account and its latest public posts (no replies, no boosts). */
export async function profilePage(
  ctx: AppContext,
  username: string,
): Promise<{ account: Account; statuses: Status[] } | undefined> {
  const account = await publicLocalAccount(ctx, username);
  if (!account) return undefined;
  const statuses = await ctx.repos.statusPages.accountStatusesPage(
    account.id,
    {},
    { excludeReplies: true, excludeReblogs: true, onlyMedia: false },
    { limit: PROFILE_POSTS },
  );
  return { account, statuses: statuses.filter((s) => s.visibility === "public") };
}

/**
 * One post's page, for anyone: only live public and unlisted posts of a visible local account
 * (followers-only and direct posts are 404, as to an anonymous API caller). A deleted post is
 * `gone`.
 */
export async function statusPage(
  ctx: AppContext,
  username: string,
  id: string,
): Promise<{ account: Account; status: Status } | "gone" | undefined> {
  const account = await publicLocalAccount(ctx, username);
  if (!account) return undefined;
  const status = await ctx.repos.statuses.getById(id);
  if (!status || status.accountId !== account.id || status.reblogOfId !== null) return undefined;
  if (status.deletedAt !== null) return "gone";
  if (!canSeeStatus(status, { followsAuthor: false, mentioned: false })) return undefined;
  return { account, status };
}
