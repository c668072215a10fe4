import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { isUnavailable } from "../../policies/moderation.ts";

/**
 * A page of the accounts `ownerId` endorses (featured accounts), with the endorsements' ids for
 * the Link header: the cursors page through endorsements, not accounts. Suspended accounts are
 * left out (Mastodon's `without_suspended`).
 */
export async function endorsedPage(
  ctx: AppContext,
  ownerId: string,
  window: IdWindow,
): Promise<{ rows: { id: string }[]; accounts: Account[] }> {
  const rows = await ctx.repos.accountCuration.pinsPage(ownerId, window);
  const found = new Map((await ctx.repos.accounts.getByIds(rows.map((r) => r.targetAccountId))).map((a) => [a.id, a]));
  const shown = (a: Account | undefined) => (a === undefined || isUnavailable(a) ? [] : [a]);
  return { rows, accounts: rows.flatMap((r) => shown(found.get(r.targetAccountId))) };
}
