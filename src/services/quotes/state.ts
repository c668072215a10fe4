import type { AppContext } from "../../context.ts";
import type { Quote, QuoteState } from "../../db/repositories/quotes.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { publishStatusUpdate } from "../streaming/publish.ts";

/**
 * A quote's state changes after it was made, for federation (services/quotes/federation.ts and
 * the inbox): a remote author accepted or rejected a local quote, or a local author's decision on
 * a remote one. In one transaction: the state (and the approval stamp's URI), `quotes_count` of
 * the quoted post, and, when a quote of a local post becomes accepted, the `quote` notification
 * of its author. Streams then show the quoting post anew. Answers the quote as it now is.
 */
export async function changeQuoteState(
  ctx: AppContext,
  quoteId: string,
  state: QuoteState,
  opts: { approvalUri?: string | null } = {},
): Promise<Quote | undefined> {
  const current = await ctx.repos.quotes.byId(quoteId);
  if (!current) return undefined;
  // Read before the transaction (on SQLite it holds the one connection).
  const quotedAuthor =
    current.quotedAccountId === null ? undefined : await ctx.repos.accounts.getById(current.quotedAccountId);
  let changed = false;
  await transactionWithJobs(ctx, async (trx, jobs) => {
    const before = await ctx.repos.quotes.setState(quoteId, state, new Date().toISOString(), trx, opts);
    if (before === undefined || before === state) return;
    changed = true;
    const quote = await ctx.repos.quotes.byId(quoteId, trx);
    if (state !== "accepted" || !quote || quote.quotedAccountId === null || quote.quotedAccountId === quote.accountId) {
      return;
    }
    // The notifications job checks the quote is still accepted when it runs.
    if (quotedAuthor?.domain === null) {
      jobs.add("notifications.create", { type: "quote", statusId: quote.statusId, activityId: quote.id });
    }
  });
  const quote = await ctx.repos.quotes.byId(quoteId);
  if (changed && quote) await publishStatusUpdate(ctx, quote.statusId);
  return quote;
}
