import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User } from "../../db/repositories/users.ts";
import { DEFAULT_PASSWORD_HASH, passwords } from "../../lib/passwords.ts";
import { userLoginProblem } from "../../policies/accounts.ts";

/** Longer passwords are refused without hashing them, so huge inputs cost nothing. */
export const SIGN_IN_PASSWORD_MAX = 256;
const EMAIL_MAX = 320;

// A hash of a throwaway password: checked when the e-mail is unknown, so answering takes as long
// for unknown addresses as for known ones and timing does not reveal which e-mails exist.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$tjThTLBKYQHPoqhpNe9sLw$W0zhdAD6Fg+7c7/xOUUlWWmkIwfZuw6bGf3OWz9TiNw";

// With other hash parameters (PASSWORD_HASH_*), a throwaway hash made once with them, so the
// dummy check still costs what checking a user's new hash costs.
const dummyByContext = new WeakMap<AppContext, Promise<string>>();

function dummyHash(ctx: AppContext): Promise<string> | string {
  const p = ctx.config.passwordHash;
  if (p.memoryCost === DEFAULT_PASSWORD_HASH.memoryCost && p.timeCost === DEFAULT_PASSWORD_HASH.timeCost) {
    return DUMMY_HASH;
  }
  let dummy = dummyByContext.get(ctx);
  if (!dummy) {
    dummy = passwords.hash("throwaway password for unknown e-mails", p);
    dummyByContext.set(ctx, dummy);
  }
  return dummy;
}

/**
 * The user a sign-in names: by e-mail address, or (when `byUsername`) by local username, with or
 * without a leading `@`. Anything with an `@` inside is an e-mail address.
 */
async function findSignInUser(ctx: AppContext, login: string, byUsername: boolean): Promise<User | undefined> {
  const trimmed = login.trim();
  if (trimmed === "") return undefined;
  const name = trimmed.startsWith("@") ? trimmed.slice(1) : trimmed;
  if (byUsername && !name.includes("@")) {
    if (!/^[A-Za-z0-9_]{1,30}$/.test(name)) return undefined;
    const account = await ctx.repos.accounts.getByUsername(name, null);
    return account ? ctx.repos.users.getByAccountId(account.id) : undefined;
  }
  return ctx.repos.users.getByEmail(trimmed);
}

/**
 * The user with this e-mail address (or, with `byUsername`, username) and password, or undefined
 * (without saying which one was wrong).
 */
export async function checkCredentials(
  ctx: AppContext,
  login: string,
  password: string,
  opts: { byUsername?: boolean } = {},
): Promise<User | undefined> {
  if (login.length > EMAIL_MAX || password.length > SIGN_IN_PASSWORD_MAX || password === "") return undefined;
  const user = await findSignInUser(ctx, login, opts.byUsername ?? false);
  const ok = await passwords.verify(user?.encryptedPassword ?? (await dummyHash(ctx)), password);
  return ok && user ? user : undefined;
}

/**
 * Checks the sign-in form (e-mail address or username, and password), then that the login is not
 * disabled. One answer for an unknown account and a wrong password, so the form does not reveal
 * who has an account.
 */
export async function checkPasswordSignIn(
  ctx: AppContext,
  login: string,
  password: string,
): Promise<{ user: User; account: Account } | { problem: "invalid" | "disabled" }> {
  const user = await checkCredentials(ctx, login, password, { byUsername: true });
  if (!user) return { problem: "invalid" };
  const account = await ctx.repos.accounts.getById(user.accountId);
  if (!account || userLoginProblem(user, account) === "disabled") return { problem: "disabled" };
  return { user, account };
}

/** Whether `password` is the user's (for confirming sensitive settings). */
export function checkPassword(user: User, password: string): Promise<boolean> {
  if (password === "" || password.length > SIGN_IN_PASSWORD_MAX) return Promise.resolve(false);
  return passwords.verify(user.encryptedPassword, password);
}

/** The user and account a browser session names, while that login may be used (not disabled or suspended). */
export async function sessionUser(
  ctx: AppContext,
  userId: string,
): Promise<{ user: User; account: Account } | undefined> {
  const user = await ctx.repos.users.getById(userId);
  const account = user && (await ctx.repos.accounts.getById(user.accountId));
  if (!user || !account || user.disabled || account.suspendedAt !== null) return undefined;
  return { user, account };
}

/**
 * Records a sign-in (browser session or new user token), as Devise's trackable does, and the
 * address it came from when known (the addresses moderators see).
 */
export async function markSignedIn(ctx: AppContext, user: User, ip?: string): Promise<void> {
  const now = new Date().toISOString();
  await ctx.repos.users.update(user.id, {
    current_sign_in_at: now,
    last_sign_in_at: user.currentSignInAt ?? now,
  });
  if (ip) await ctx.repos.adminAccounts.recordIp(user.id, ip, now);
}
