import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { isUnavailable } from "../../policies/moderation.ts";
import { filterVisible, type ViewerId } from "./views.ts";

/**
 * Pages of statuses by who wrote or saved them. Each answer has the page as read (`rows`, which
 * the page links are drawn from) and the statuses of it the viewer is shown (`statuses`).
 */
export interface StatusesPage {
  rows: readonly { id: string }[];
  statuses: Status[];
}

export interface AccountStatusesOptions {
  pinned: boolean;
  excludeReplies: boolean;
  excludeReblogs: boolean;
  onlyMedia: boolean;
  tagged?: string;
}

/**
 * One page of an account's profile (`GET /api/v1/accounts/:id/statuses`): its pinned statuses
 * (all on the first page, none after) or its statuses as the options narrow them. The account's
 * own posts stay even when the viewer blocks or mutes it, as Mastodon. A suspended account's is
 * empty (Mastodon: `[]` for an unavailable account).
 */
export async function accountStatusesPage(
  ctx: AppContext,
  account: Account,
  viewerId: ViewerId,
  opts: AccountStatusesOptions,
  window: IdWindow,
): Promise<StatusesPage> {
  if (isUnavailable(account)) return { rows: [], statuses: [] };
  const accountId = account.id;
  const reader = { accountId: viewerId };
  let rows: Status[];
  if (opts.pinned) {
    rows =
      window.maxId || window.minId || window.sinceId ? [] : await ctx.repos.statusPages.pinnedOf(accountId, reader);
  } else {
    const { excludeReplies, excludeReblogs, onlyMedia, tagged } = opts;
    rows = await ctx.repos.statusPages.accountStatusesPage(
      accountId,
      reader,
      { excludeReplies, excludeReblogs, onlyMedia, tagged },
      window,
    );
  }
  return { rows, statuses: await filterVisible(ctx, rows, viewerId, { keep: accountId }) };
}

/** One page of the statuses the account favourited or bookmarked, latest saved first (paged by that). */
export async function savedStatusesPage(
  ctx: AppContext,
  kind: "favourites" | "bookmarks",
  accountId: string,
  window: IdWindow,
): Promise<StatusesPage> {
  const rows = await ctx.repos.statusInteractions.statusesPage(kind, accountId, window);
  const statuses = await filterVisible(
    ctx,
    rows.map((r) => r.status),
    accountId,
    { keep: "all" },
  );
  return { rows, statuses };
}
