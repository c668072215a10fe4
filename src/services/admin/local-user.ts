import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User } from "../../db/repositories/users.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";

/** A local account together with its user: what every administration action works on. */
export interface LocalUser {
  account: Account;
  user: User;
}

export type LocalUserLookup =
  | { found: LocalUser }
  | { missing: "no-account" }
  /** The account was deleted: its row (and name) remain, its user is gone. */
  | { missing: "deleted" };

/** Finds a live local account by username (case-insensitive), or says why there is none. */
export async function findLocalUser(ctx: AppContext, username: string): Promise<LocalUserLookup> {
  const account = await ctx.repos.accounts.getByUsername(username, null);
  if (!account) return { missing: "no-account" };
  if (isAccountDeleted(account)) return { missing: "deleted" };
  const user = await ctx.repos.users.getByAccountId(account.id);
  if (!user) return { missing: "deleted" };
  return { found: { account, user } };
}
