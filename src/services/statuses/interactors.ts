import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { hiddenAccounts } from "../relationships/relationships.ts";
import type { ViewerId } from "./views.ts";

/**
 * One page of who favourited or boosted a status: the page as read (`rows`, for its links) and
 * the accounts of it to show, in that order, without the unsearchable (suspended, gone) and those
 * the viewer blocks or mutes or is blocked by.
 */
export async function statusInteractorsPage(
  ctx: AppContext,
  kind: "favouriters" | "rebloggers",
  statusId: string,
  viewerId: ViewerId,
  window: IdWindow,
): Promise<{ rows: { id: string; accountId: string }[]; accounts: Account[] }> {
  const rows =
    kind === "favouriters"
      ? await ctx.repos.statusInteractions.favouritersPage(statusId, window)
      : await ctx.repos.statuses.rebloggersPage(statusId, window);
  const visible = await ctx.repos.accounts.searchableIds(rows.map((r) => r.accountId));
  if (viewerId !== undefined) {
    for (const id of await hiddenAccounts(ctx, viewerId, [...visible])) visible.delete(id);
  }
  const accounts = new Map((await ctx.repos.accounts.getByIds([...visible])).map((a) => [a.id, a] as const));
  return { rows, accounts: rows.flatMap((r) => accounts.get(r.accountId) ?? []) };
}
