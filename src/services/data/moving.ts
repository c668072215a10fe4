import type { AppContext } from "../../context.ts";
import type { AccountMigration } from "../../db/repositories/account-migrations.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User } from "../../db/repositories/users.ts";
import { enqueueDelivery } from "../../federation/deliveries.ts";
import { ApiError } from "../../lib/errors.ts";
import { passwords } from "../../lib/passwords.ts";
import { changeAliases, moveAccount } from "../migration/move.ts";
import { SIGN_IN_PASSWORD_MAX } from "../oauth/sign-in.ts";

/** Mastodon's AccountMigration::COOLDOWN_PERIOD: one move per 30 days. */
export const MOVE_COOLDOWN_MS = 30 * 86400_000;

/** An alias as the page lists it: the actor URI, and the account's address when known here. */
export interface AliasView {
  uri: string;
  acct: string | null;
}

/** Why an alias or a move was refused (each has its text on the page). */
export type MovingProblem =
  | "blank"
  | "not_found"
  | "self"
  | "missing_alias"
  | "target_moved"
  | "already_moved"
  | "wrong_password"
  | "on_cooldown";

const acctOf = (ctx: AppContext, a: Account): string => `${a.username}@${a.domain ?? ctx.config.localDomain}`;
const clean = (acct: string): string => acct.trim().replace(/^@/, "");

/** The account's aliases (`alsoKnownAs`), with the address of each account known here. */
export async function aliasesOf(ctx: AppContext, account: Account): Promise<AliasView[]> {
  const fresh = (await ctx.repos.accounts.getById(account.id)) ?? account;
  const known = new Map((await ctx.repos.accounts.getByUris(fresh.alsoKnownAs)).map((a) => [a.uri, a]));
  return fresh.alsoKnownAs.map((uri) => {
    const a = known.get(uri);
    return { uri, acct: a ? acctOf(ctx, a) : null };
  });
}

/** Adds an alias by address (the account that will move here); a problem when it cannot be found or is this one. */
export async function addAlias(ctx: AppContext, account: Account, acct: string): Promise<MovingProblem | undefined> {
  const wanted = clean(acct);
  if (wanted === "") return "blank";
  try {
    await changeAliases(ctx, (await ctx.repos.accounts.getById(account.id)) ?? account, { add: [wanted] });
    return undefined;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return e.status === 404 ? "not_found" : "self";
  }
}

/** Removes an alias (by its actor URI, as the page lists it). */
export async function removeAlias(ctx: AppContext, account: Account, uri: string): Promise<void> {
  const fresh = (await ctx.repos.accounts.getById(account.id)) ?? account;
  if (!fresh.alsoKnownAs.includes(uri)) return;
  await changeAliases(ctx, fresh, { remove: [uri] });
}

export interface MigrationState {
  /** The account this one redirects to, if any. */
  movedTo: Account | undefined;
  migrations: (AccountMigration & { target: Account | undefined })[];
  /** Until when no new move is allowed. */
  cooldownUntil: Date | undefined;
}

export async function migrationState(ctx: AppContext, account: Account): Promise<MigrationState> {
  const fresh = (await ctx.repos.accounts.getById(account.id)) ?? account;
  const migrations = await ctx.repos.accountMigrations.ofAccount(account.id);
  const targets = await ctx.repos.accounts.getByIds(
    migrations.flatMap((m) => (m.targetAccountId ? [m.targetAccountId] : [])),
  );
  const byId = new Map(targets.map((a) => [a.id, a]));
  const movedTo = fresh.movedToAccountId ? await ctx.repos.accounts.getById(fresh.movedToAccountId) : undefined;
  const last = migrations[0];
  const until = last ? new Date(Date.parse(last.createdAt) + MOVE_COOLDOWN_MS) : undefined;
  return {
    movedTo,
    migrations: migrations.map((m) => ({ ...m, target: m.targetAccountId ? byId.get(m.targetAccountId) : undefined })),
    cooldownUntil: until && until.getTime() > Date.now() ? until : undefined,
  };
}

/**
 * Moves the account to `acct` after checking the user's password (Mastodon's AccountMigration
 * and MoveService): not within 30 days of the last move; the target must list this account as
 * an alias. The move service marks the account moved, sends `Move` to remote followers and has
 * local followers follow the new account.
 */
export async function moveTo(
  ctx: AppContext,
  user: User,
  account: Account,
  input: { acct: string; password: string },
): Promise<{ target: Account } | { problem: MovingProblem }> {
  const acct = clean(input.acct);
  const passwordOk =
    input.password !== "" &&
    input.password.length <= SIGN_IN_PASSWORD_MAX &&
    (await passwords.verify(user.encryptedPassword, input.password));
  if (!passwordOk) return { problem: "wrong_password" };
  if (acct === "") return { problem: "blank" };
  const state = await migrationState(ctx, account);
  if (state.cooldownUntil) return { problem: "on_cooldown" };
  const fresh = (await ctx.repos.accounts.getById(account.id)) ?? account;
  let moved: { target: Account; localFollowers: number };
  try {
    if (state.movedTo && acctOf(ctx, state.movedTo).toLowerCase() === acct.toLowerCase()) {
      return { problem: "already_moved" };
    }
    moved = await moveAccount(ctx, fresh, acct);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.status === 404) return { problem: "not_found" };
    if (/aliases/.test(e.message)) return { problem: "missing_alias" };
    if (/moved away/.test(e.message)) return { problem: "target_moved" };
    return { problem: "self" };
  }
  await ctx.repos.accountMigrations.insert({
    id: ctx.ids.next(),
    accountId: account.id,
    acct,
    followersCount: fresh.followersCount,
    targetAccountId: moved.target.id,
    createdAt: new Date().toISOString(),
  });
  return { target: moved.target };
}

/**
 * Cancels the redirect (Mastodon's Settings::Migration::RedirectsController#destroy): the account
 * no longer points at the new one, and remote servers get the updated actor. Followers who moved
 * stay with the new account.
 */
export async function cancelRedirect(ctx: AppContext, account: Account): Promise<boolean> {
  const fresh = (await ctx.repos.accounts.getById(account.id)) ?? account;
  if (fresh.movedToAccountId === null) return false;
  await ctx.repos.accounts.update(account.id, { moved_to_account_id: null, updated_at: new Date().toISOString() });
  await enqueueDelivery(ctx, { type: "actor.update", accountId: account.id });
  return true;
}
