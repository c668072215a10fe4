import type { AppContext } from "../../context.ts";
import type { ActionLogEntry } from "../../db/repositories/admin-action-logs.ts";
import type { Role } from "../../db/repositories/roles.ts";
import { serializeActionLog, serializeAdminRole } from "../../serializers/admin-role.ts";
import { accountsJson } from "../accounts/views.ts";

/** The admin roles API's JSON of a role. */
export const adminRoleJson = (role: Role): Record<string, unknown> => serializeAdminRole(role);

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
