import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { AccessToken } from "../../db/repositories/oauth.ts";
import type { User } from "../../db/repositories/users.ts";
import { sha256 } from "../../lib/crypto.ts";

/** What a valid bearer token resolved to. `user`/`account` are absent for app tokens. */
export interface Auth {
  token: AccessToken;
  tokenHash: string;
  user?: User;
  account?: Account;
}

/**
 * The database's change stamp, under which what a token resolved to may be remembered; undefined
 * where it cannot be known cheaply (then nothing may be cached). Synchronous: it is read on every request.
 */
export function authStamp(ctx: AppContext): number | undefined {
  return ctx.database.changeStamp();
}

/** What a raw bearer token names: null when it is unknown, revoked, or its user or account is gone. One query. */
export async function resolveBearerToken(ctx: AppContext, raw: string): Promise<Auth | null> {
  if (raw.length > 200) return null;
  const tokenHash = sha256(raw);
  const owner = await ctx.repos.auth.getTokenOwner(tokenHash);
  if (!owner || owner.token.revokedAt !== null) return null;
  if (owner.token.userId === null) return { token: owner.token, tokenHash };
  if (!owner.user || !owner.account) return null;
  return { token: owner.token, tokenHash, user: owner.user, account: owner.account };
}

/**
 * Notes that the user used the API now (Mastodon's "active" count), from `ip` when it is known
 * (the addresses moderators see); `auth.user` is updated in place.
 */
export async function recordSignIn(ctx: AppContext, auth: Auth, ip?: string): Promise<void> {
  const user = auth.user;
  if (!user) return;
  const iso = new Date().toISOString();
  const previous = user.currentSignInAt;
  await ctx.repos.users.update(user.id, { current_sign_in_at: iso, last_sign_in_at: previous });
  if (ip) await ctx.repos.adminAccounts.recordIp(user.id, ip, iso);
  auth.user = { ...user, currentSignInAt: iso, lastSignInAt: previous };
}
