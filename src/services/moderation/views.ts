import type { AppContext } from "../../context.ts";
import type { ActionLogEntry } from "../../db/repositories/admin-action-logs.ts";
import type { Role } from "../../db/repositories/roles.ts";
import { serializeActionLog, serializeAdminRole } from "../../serializers/admin-role.ts";
import { accountsJson } from "../accounts/views.ts";
import { adminAccountsJsonById } from "../reports/admin-views.ts";

/** The admin roles API's JSON of a role. */
export const adminRoleJson = (role: Role): Record<string, unknown> => serializeAdminRole(role);

/** Admin::Account JSON of one account (a 404 is the caller's business: the account exists here). */
export async function adminAccountJson(ctx: AppContext, accountId: string): Promise<Record<string, unknown>> {
  const account = await ctx.repos.accounts.getById(accountId);
  if (!account) throw new Error(`account ${accountId} vanished`);
  const json = (await adminAccountsJsonById(ctx, [account])).get(account.id);
  if (!json) throw new Error(`account ${accountId} could not be rendered`);
  return json;
}

/** Action log entries as the API shows them, each with the Account of who acted, in two queries. */
export async function actionLogsJson(
  ctx: AppContext,
  entries: readonly ActionLogEntry[],
): Promise<Record<string, unknown>[]> {
  const ids = [...new Set(entries.map((e) => e.accountId).filter((id): id is string => id !== null))];
  const accounts = await ctx.repos.accounts.getByIds(ids);
  const json = await accountsJson(ctx, accounts);
  const byId = new Map(accounts.map((a, i) => [a.id, json[i]]));
  return entries.map((entry) =>
    serializeActionLog({ entry, account: entry.accountId === null ? null : (byId.get(entry.accountId) ?? null) }),
  );
}
