import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { IdWindow } from "../../lib/pagination.ts";

/**
 * A page of the accounts `ownerId` endorses (featured accounts), with the endorsements' ids for
 * the Link header: the cursors page through endorsements, not accounts.
 */
export async function endorsedPage(
  ctx: AppContext,
  ownerId: string,
  window: IdWindow,
): Promise<{ rows: { id: string }[]; accounts: Account[] }> {
  const rows = await ctx.repos.accountCuration.pinsPage(ownerId, window);
  const found = new Map((await ctx.repos.accounts.getByIds(rows.map((r) => r.targetAccountId))).map((a) => [a.id, a]));
  return { rows, accounts: rows.flatMap((r) => found.get(r.targetAccountId) ?? []) };
}
