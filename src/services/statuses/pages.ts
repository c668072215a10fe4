import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { isUnavailable } from "../../policies/moderation.ts";
import { idRows, keptIdPage, windowKey } from "../feeds/id-pages.ts";
import { keptStatusesText } from "./rendered.ts";
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
  const rows = await accountStatusRows(ctx, account.id, viewerId, opts, window);
  return { rows, statuses: await filterVisible(ctx, rows, viewerId, { keep: account.id }) };
}

function accountStatusRows(
  ctx: AppContext,
  accountId: string,
  viewerId: ViewerId,
  opts: AccountStatusesOptions,
  window: IdWindow,
): Promise<Status[]> {
  const reader = { accountId: viewerId };
  if (opts.pinned) {
    return window.maxId || window.minId || window.sinceId
      ? Promise.resolve([])
      : ctx.repos.statusPages.pinnedOf(accountId, reader);
  }
  const { excludeReplies, excludeReblogs, onlyMedia, tagged } = opts;
  return ctx.repos.statusPages.accountStatusesPage(
    accountId,
    reader,
    { excludeReplies, excludeReblogs, onlyMedia, tagged },
    window,
  );
}

/** A page of statuses as JSON, with the rows it was read from (for the Link header). */
export interface StatusesText {
  rows: readonly { id: string }[];
  body: Buffer;
}

/**
 * `accountStatusesPage` rendered as `statusesText` does (filter context `account`), from the kept
 * renders (statuses/rendered.ts): its ids are read once while nothing they are read from changed
 * (the render change stamp).
 */
export async function accountStatusesText(
  ctx: AppContext,
  account: Account,
  viewerId: ViewerId,
  opts: AccountStatusesOptions,
  window: IdWindow,
): Promise<StatusesText> {
  if (isUnavailable(account)) return { rows: [], body: Buffer.from("[]") };
  const key = `account ${account.id} ${viewerId ?? ""} ${JSON.stringify(opts)} ${windowKey(window)}`;
  const ids = await keptIdPage(ctx, ctx.database.renderChangeStamp(), key, async () =>
    (await accountStatusRows(ctx, account.id, viewerId, opts, window)).map((s) => s.id),
  );
  return {
    rows: idRows(ids),
    body: await keptStatusesText(ctx, ids, viewerId, "account", { keep: account.id, pageKey: key }),
  };
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

/**
 * `savedStatusesPage` rendered as `statusesText` does without a filter context (every filter
 * marks, none hides), from the kept renders: paged (and linked) by the favourite's or bookmark's
 * id, its ids read once while nothing they are read from changed (the render change stamp).
 */
export async function savedStatusesText(
  ctx: AppContext,
  kind: "favourites" | "bookmarks",
  accountId: string,
  window: IdWindow,
): Promise<StatusesText> {
  const key = `${kind} ${accountId} ${windowKey(window)}`;
  const page = await keptIdPage(ctx, ctx.database.renderChangeStamp(), key, async () => {
    const rows = await ctx.repos.statusInteractions.statusesPage(kind, accountId, window);
    return { rows: rows.map((r) => ({ id: r.id })), ids: rows.map((r) => r.status.id) };
  });
  return {
    rows: page.rows,
    body: await keptStatusesText(ctx, page.ids, accountId, "any", { keep: "all", pageKey: key }),
  };
}
