import type { AppContext } from "../../context.ts";
import { ApiError } from "../../lib/errors.ts";
import {
  findAccountByAcct,
  performAccountAction,
  unsensitiveAccount,
  unsilenceAccount,
  unsuspendAccount,
} from "../../services/moderation/account-actions.ts";
import { COMMAND_LINE } from "../../services/moderation/action-log.ts";
import type { Output } from "../output.ts";
import type { AccountActionCommand } from "../parse-account-actions.ts";
import { CommandError } from "../usage.ts";

/** `gannet accounts suspend|unsuspend|silence|unsilence|sensitive|unsensitive ACCOUNT`. */
export async function accountsAction(ctx: AppContext, cmd: AccountActionCommand, io: Output): Promise<void> {
  const account = await findAccountByAcct(ctx, cmd.account);
  if (!account) throw new CommandError(`no account named ${cmd.account}`);
  if (account.suspensionOrigin === "deleted") throw new CommandError(`the account ${cmd.account} has been deleted`);
  try {
    switch (cmd.action) {
      case "suspend":
      case "silence":
      case "sensitive":
        await performAccountAction(ctx, COMMAND_LINE, account, {
          type: cmd.action,
          text: cmd.text,
          sendEmailNotification: cmd.email,
        });
        break;
      case "unsuspend":
        if (account.suspendedAt === null || account.suspensionOrigin !== "local") {
          throw new CommandError(`${cmd.account} is not suspended by this server`);
        }
        await unsuspendAccount(ctx, COMMAND_LINE, account);
        break;
      case "unsilence":
        await unsilenceAccount(ctx, COMMAND_LINE, account);
        break;
      case "unsensitive":
        await unsensitiveAccount(ctx, COMMAND_LINE, account);
        break;
    }
  } catch (e) {
    throw e instanceof ApiError ? new CommandError(e.message) : e;
  }
  await io.out("OK");
}
