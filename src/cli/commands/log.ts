import type { AppContext } from "../../context.ts";
import { actionLogPage } from "../../services/moderation/action-log.ts";
import type { Output } from "../output.ts";
import type { LogCommand } from "../parse-log.ts";
import { CommandError } from "../usage.ts";

/** Tabs and line breaks would split a line of the listing. */
const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, " ");

export async function logList(ctx: AppContext, cmd: LogCommand, io: Output): Promise<void> {
  let accountId: string | undefined;
  if (cmd.account !== undefined) {
    const account = await ctx.repos.accounts.getByUsername(cmd.account, null);
    if (!account) throw new CommandError(`no local account named ${cmd.account}`);
    accountId = account.id;
  }
  const entries = await actionLogPage(ctx, { accountId, targetType: cmd.targetType }, { limit: cmd.limit });
  const actors = await ctx.repos.accounts.getByIds([
    ...new Set(entries.map((e) => e.accountId).filter((id): id is string => id !== null)),
  ]);
  const names = new Map(actors.map((a) => [a.id, a.username]));
  await io.out(["id", "time", "who", "action", "target type", "target id", "summary"].join("\t"));
  for (const e of entries) {
    const who = e.accountId === null ? "-" : (names.get(e.accountId) ?? e.accountId);
    await io.out([e.id, e.createdAt, who, e.action, e.targetType, e.targetId ?? "", oneLine(e.summary)].join("\t"));
  }
}
