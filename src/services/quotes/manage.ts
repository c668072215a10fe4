import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { User } from "../../db/repositories/users.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { type QuotePolicyName, storedQuotePolicy } from "../../policies/quotes.ts";
import { changeQuotePolicy } from "../statuses/edit.ts";
import { filterVisible } from "../statuses/views.ts";
import { publishStatusUpdate } from "../streaming/publish.ts";
import { afterQuoteRevoked } from "./federation.ts";

/**
 * What the author of a quoted post does with its quotes (Mastodon 4.5): list them, revoke one,
 * and change who may quote the post. The post itself was found visible by the route.
 */

/** Only the post's author lists its quotes, revokes them or changes its policy (Pundit's 403). */
function checkOwner(status: Status, account: Account): void {
  if (status.accountId !== account.id) throw forbidden();
}

/**
 * `GET /api/v1/statuses/:id/quotes`: the accepted quotes of the author's post, newest quote
 * first, paged by the quote's id (`cursors`), those the author may not see left out.
 */
export async function quotesOfStatus(
  ctx: AppContext,
  account: Account,
  status: Status,
  window: IdWindow,
): Promise<{ statuses: Status[]; cursors: { first?: string; last?: string; count: number } }> {
  checkOwner(status, account);
  const rows = await ctx.repos.quotes.acceptedPage(status.id, window);
  const found = new Map((await ctx.repos.statuses.getByIds(rows.map((r) => r.statusId))).map((s) => [s.id, s]));
  const ordered = rows.flatMap((r) => found.get(r.statusId) ?? []);
  // The cursors are those of the page as read, so a hidden quote does not end the paging.
  return {
    statuses: await filterVisible(ctx, ordered, account.id),
    cursors: { first: rows[0]?.id, last: rows.at(-1)?.id, count: rows.length },
  };
}

/**
 * `POST /api/v1/statuses/:id/quotes/:quoting_status_id/revoke`: the quoted post's author
 * withdraws a quote (Mastodon's RevokeQuoteService: accepted becomes revoked, which takes it off
 * the count; a pending one is rejected). Federation tells the quoting server after commit.
 * Answers the quoting post.
 */
export async function revokeQuote(
  ctx: AppContext,
  account: Account,
  status: Status,
  quotingStatusId: string,
): Promise<Status> {
  if (!isId(quotingStatusId)) throw notFound();
  const quote = await ctx.repos.quotes.byQuotingAndQuoted(quotingStatusId, status.id);
  const quoting = await ctx.repos.statuses.getById(quotingStatusId);
  // A deleted quoting post no longer counts: nothing is left to revoke.
  if (!quote || !quoting || quoting.deletedAt !== null) throw notFound();
  // QuotePolicy#revoke?: the quoted post's author only.
  if (quote.quotedAccountId !== account.id) throw forbidden();
  let changed = false;
  if (quote.state !== "revoked" && quote.state !== "rejected") {
    const next = quote.state === "accepted" ? "revoked" : "rejected";
    await ctx.db.transaction().execute(async (trx) => {
      const before = await ctx.repos.quotes.setState(quote.id, next, new Date().toISOString(), trx);
      changed = before !== undefined && before !== next;
    });
  }
  if (changed) {
    await afterQuoteRevoked(ctx, quote.id);
    // Streams show the quoting post again, without the quoted one (Mastodon broadcasts an update).
    await publishStatusUpdate(ctx, quotingStatusId);
  }
  return (await ctx.repos.statuses.getById(quotingStatusId)) ?? quoting;
}

/**
 * `PUT /api/v1/statuses/:id/interaction_policy`: who may quote the author's post from now on
 * (absent: the author's default); a private or direct post stays quotable by its author only.
 */
export async function setStatusQuotePolicy(
  ctx: AppContext,
  account: Account,
  user: User,
  status: Status,
  asked: QuotePolicyName | undefined,
): Promise<Status> {
  checkOwner(status, account);
  if (status.reblogOfId !== null) throw notFound();
  const policy = storedQuotePolicy(asked ?? user.settings.quotePolicy ?? "public", status.visibility);
  return changeQuotePolicy(ctx, status, policy);
}
