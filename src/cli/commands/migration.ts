import type { AppContext } from "../../context.ts";
import { ApiError } from "../../lib/errors.ts";
import { changeAliases, moveAccount } from "../../services/migration/move.ts";
import type { Output } from "../output.ts";
import type { Command } from "../parse-command.ts";
import { CommandError } from "../usage.ts";
import { requireLocalUser } from "./accounts.ts";

const asCommandError = (e: unknown): unknown => (e instanceof ApiError ? new CommandError(e.message) : e);

export async function accountsAliases(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "accounts-aliases" }>,
  io: Output,
): Promise<void> {
  const { account } = await requireLocalUser(ctx, cmd.username);
  let aliases = account.alsoKnownAs;
  if (cmd.add.length > 0 || cmd.remove.length > 0) {
    try {
      aliases = await changeAliases(ctx, account, { add: cmd.add, remove: cmd.remove });
    } catch (e) {
      throw asCommandError(e);
    }
  }
  for (const uri of aliases) await io.out(uri);
}

export async function accountsMove(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "accounts-move" }>,
  io: Output,
): Promise<void> {
  const { account } = await requireLocalUser(ctx, cmd.username);
  let moved: Awaited<ReturnType<typeof moveAccount>>;
  try {
    moved = await moveAccount(ctx, account, cmd.to);
  } catch (e) {
    throw asCommandError(e);
  }
  await io.out("OK");
  await io.out(moved.target.uri);
}
