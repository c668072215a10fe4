import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { refreshIfStale } from "../../federation/resolve/queue.ts";
import { gone, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { isAccountDeleted, isAccountPublic } from "../../policies/accounts.ts";

/**
 * The account `GET /api/v1/accounts/:id` shows: 404 when it does not exist or is a local account
 * nobody may see yet (unconfirmed, unapproved), 410 when it was deleted. Suspended accounts are
 * returned; the serializer empties them.
 */
const keptVisible = new WeakMap<AppContext, { stamp: number; accounts: Map<string, Account> }>();

/**
 * `getVisibleAccount`, the account kept while the accounts and users stay the same (both among
 * the change stamp's tables), for the busiest reads (an account's statuses).
 */
export async function getVisibleAccountKept(ctx: AppContext, id: string): Promise<Account> {
  const stamp = ctx.database.changeStamp();
  if (stamp === undefined) return getVisibleAccount(ctx, id);
  let kept = keptVisible.get(ctx);
  if (kept === undefined || kept.stamp !== stamp) {
    kept = { stamp, accounts: new Map() };
    keptVisible.set(ctx, kept);
  }
  const known = kept.accounts.get(id);
  if (known !== undefined) return known;
  const account = await getVisibleAccount(ctx, id);
  if (kept.accounts.size >= 2000) kept.accounts.clear();
  kept.accounts.set(id, account);
  return account;
}

export async function getVisibleAccount(ctx: AppContext, id: string): Promise<Account> {
  if (!isId(id)) throw notFound();
  const account = await ctx.repos.accounts.getById(id);
  if (!account) throw notFound();
  // Before the user check: a deleted local account has no user left, and is still a 410.
  if (isAccountDeleted(account)) throw gone();
  if (account.domain === null) {
    const user = await ctx.repos.users.getByAccountId(account.id);
    if (!isAccountPublic(account, user)) throw notFound();
  }
  return account;
}

/** The visible accounts among `ids` (invisible, deleted and unknown ones skipped), in the order asked. */
export async function getVisibleAccounts(ctx: AppContext, ids: readonly string[]): Promise<Account[]> {
  const wanted = [...new Set(ids.filter(isId))];
  const found = new Map((await ctx.repos.accounts.getPublicByIds(wanted)).map((a) => [a.id, a]));
  return wanted.flatMap((id) => found.get(id) ?? []);
}

/** `acct` split into a username and a domain (null for this server), or undefined when malformed. */
export function parseAcct(ctx: AppContext, acct: string): { username: string; domain: string | null } | undefined {
  const parts = acct.trim().replace(/^@/, "").split("@");
  if (parts.length > 2) return undefined;
  const [username, rawDomain] = parts;
  if (!/^[a-z0-9_]+(?:[a-z0-9_.-]*[a-z0-9_])?$/i.test(username)) return undefined;
  if (rawDomain === undefined || rawDomain === "") return { username, domain: null };
  if (/[\s/?#\\]/.test(rawDomain)) return undefined;
  let domain: string;
  try {
    // Lower-cases the host and turns an internationalised one into its punycode form.
    domain = new URL(`http://${rawDomain}`).host;
  } catch {
    return undefined;
  }
  if (domain === ctx.config.localDomain || domain === ctx.config.webDomain) return { username, domain: null };
  return { username, domain };
}

/**
 * `GET /api/v1/accounts/lookup`: an account by `user` or `user@domain` among those this server
 * knows. An unknown remote one is a 404, as in Mastodon: the endpoint needs no token, so it must
 * not make this server ask other servers anything (resolving is for signed-in search with
 * `resolve=true`). A known stale one is refreshed in the background. Unlike everything else it
 * also finds unconfirmed and unapproved local accounts, so a sign-up form can tell whether a
 * username is free.
 */
export async function lookupAccount(ctx: AppContext, acct: string): Promise<Account> {
  const parsed = parseAcct(ctx, acct);
  if (!parsed) throw notFound();
  const account = await ctx.repos.accounts.getByUsername(parsed.username, parsed.domain);
  if (!account) throw notFound();
  if (isAccountDeleted(account)) throw gone();
  if (account.domain !== null) await refreshIfStale(ctx, [account]);
  return account;
}

/** Any account by id, whatever its state (admin endpoints see every account): 404 when there is none. */
export async function getExistingAccount(ctx: AppContext, id: string): Promise<Account> {
  const account = isId(id) ? await ctx.repos.accounts.getById(id) : undefined;
  if (!account) throw notFound();
  return account;
}
