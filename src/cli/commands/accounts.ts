import type { AppContext } from "../../context.ts";
import { ApiError } from "../../lib/errors.ts";
import { createLocalAccount } from "../../services/accounts/create-local-account.ts";
import { deleteLocalAccount } from "../../services/admin/delete-local-account.ts";
import { eachLocalAccount } from "../../services/admin/list-local-accounts.ts";
import { findLocalUser, type LocalUser } from "../../services/admin/local-user.ts";
import { modifyAccount } from "../../services/admin/modify-account.ts";
import { loadSiteInfo } from "../../services/instance/site-settings.ts";
import { COMMAND_LINE } from "../../services/moderation/action-log.ts";
import { approveAccount, rejectAccount } from "../../services/moderation/approval.ts";
import { enqueueAdminSignUp } from "../../services/notifications/admin-sign-up.ts";
import type { Output } from "../output.ts";
import type { Command } from "../parse-command.ts";
import { CommandError } from "../usage.ts";

/** The live local account named `username`, or a CommandError saying why there is none. */
export async function requireLocalUser(ctx: AppContext, username: string): Promise<LocalUser> {
  const r = await findLocalUser(ctx, username);
  if ("found" in r) return r.found;
  if (r.missing === "deleted") throw new CommandError(`the account ${username} has been deleted`);
  throw new CommandError(`no local account named ${username}`);
}

/** Validation failures come back as a 422 whose message already reads well on a terminal. */
function asCommandError(e: unknown): unknown {
  return e instanceof ApiError ? new CommandError(e.message) : e;
}

export async function accountsCreate(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "accounts-create" }>,
  io: Output,
): Promise<void> {
  if (cmd.role !== undefined && !(await ctx.repos.roles.getByName(cmd.role))) {
    const names = (await ctx.repos.roles.all()).map((r) => r.name).join(", ");
    throw new CommandError(`no role named ${cmd.role} (roles: ${names})`);
  }
  let created: Awaited<ReturnType<typeof createLocalAccount>>;
  try {
    created = await createLocalAccount(ctx, {
      username: cmd.username,
      email: cmd.email,
      password: cmd.password,
      role: cmd.role,
      confirmed: cmd.confirmed,
      // As in Mastodon, open registrations need no approval, whoever creates the account.
      approved: cmd.approved || (await loadSiteInfo(ctx)).registrationsMode === "open",
      allowReserved: true,
      createdBy: COMMAND_LINE,
    });
  } catch (e) {
    throw asCommandError(e);
  }
  // Staff are told of a usable new account, as Mastodon's `tootctl accounts create --confirmed` does.
  if (created.user.confirmedAt !== null && created.user.approved) await enqueueAdminSignUp(ctx, created.account.id);
  await io.out("OK");
  if (cmd.password === undefined) await io.out(`New password: ${created.password}`);
  if (!cmd.confirmed) {
    await io.err(
      `note: ${cmd.username} cannot sign in until confirmed (gannet accounts modify ${cmd.username} --confirm)`,
    );
  }
  if (!created.user.approved) {
    await io.err(`note: ${cmd.username} is waiting for approval (gannet accounts approve ${cmd.username})`);
  }
}

export async function accountsModify(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "accounts-modify" }>,
  io: Output,
): Promise<void> {
  const target = await requireLocalUser(ctx, cmd.username);
  // Approval goes through the moderation service (logged, staff told, user welcomed) after the
  // other changes, so that a `--confirm` given with it counts.
  const { approve, ...rest } = cmd.changes;
  let result: Awaited<ReturnType<typeof modifyAccount>>;
  try {
    result = await modifyAccount(ctx, target, rest, COMMAND_LINE);
    if (approve && !result.user.approved) await approveAccount(ctx, COMMAND_LINE, target.account);
  } catch (e) {
    throw asCommandError(e);
  }
  await io.out("OK");
  if (result.password !== undefined) await io.out(`New password: ${result.password}`);
}

export async function accountsDelete(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "accounts-delete" }>,
  io: Output,
): Promise<void> {
  const target = await requireLocalUser(ctx, cmd.username);
  await deleteLocalAccount(ctx, target, COMMAND_LINE);
  await io.out("OK");
}

const yesNo = (b: boolean) => (b ? "yes" : "no");

export async function accountsList(ctx: AppContext, io: Output): Promise<void> {
  await io.out(["username", "email", "role", "confirmed", "approved", "disabled"].join("\t"));
  for await (const a of eachLocalAccount(ctx)) {
    await io.out([a.username, a.email, a.role, yesNo(a.confirmed), yesNo(a.approved), yesNo(a.disabled)].join("\t"));
  }
}

/** Approve and reject act on pending sign-ups only; the service's 403 reads badly on a terminal. */
async function pendingAction(
  ctx: AppContext,
  username: string,
  io: Output,
  action: typeof approveAccount | typeof rejectAccount,
): Promise<void> {
  const target = await requireLocalUser(ctx, username);
  if (target.user.approved) throw new CommandError(`${username} is not waiting for approval`);
  try {
    await action(ctx, COMMAND_LINE, target.account);
  } catch (e) {
    throw asCommandError(e);
  }
  await io.out("OK");
}

export function accountsApprove(ctx: AppContext, username: string, io: Output): Promise<void> {
  return pendingAction(ctx, username, io, approveAccount);
}

export function accountsReject(ctx: AppContext, username: string, io: Output): Promise<void> {
  return pendingAction(ctx, username, io, rejectAccount);
}
