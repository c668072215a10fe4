import type { AppContext } from "../../context.ts";
import { enqueueDelivery } from "../../federation/deliveries.ts";

/**
 * What federation does when a quote changes here (FEP-044f). The quotes service calls these after
 * its transaction commits; they only queue work and never wait for remote servers.
 */

/**
 * A local post now quotes a post (row `quoteId` in `quotes`): a remote quoted post's author is
 * asked with a QuoteRequest, whose id the quote keeps (`activity_uri`) so the answer finds it. A quote
 * of a local post needs nothing more: its stamp is served here once accepted.
 */
export async function afterQuoteCreated(ctx: AppContext, quoteId: string): Promise<void> {
  const quote = await ctx.repos.quotes.byId(quoteId);
  if (quote?.state !== "pending" || quote.quotedAccountId === null || quote.activityUri === null) return;
  const [quoter, quoted] = await Promise.all([
    ctx.repos.accounts.getById(quote.accountId),
    ctx.repos.accounts.getById(quote.quotedAccountId),
  ]);
  if (!quoter || quoter.domain !== null || !quoted || quoted.domain === null) return;
  await enqueueDelivery(ctx, { type: "quote.request", quoteId: quote.id });
}

/**
 * The quoted post's local author revoked quote `quoteId`: a remote quoting server learns it by
 * the Delete of the stamp (servers that only showed the quote check the stamp again).
 */
export async function afterQuoteRevoked(ctx: AppContext, quoteId: string): Promise<void> {
  const quote = await ctx.repos.quotes.byId(quoteId);
  if (quote?.state !== "revoked") return;
  const quoter = await ctx.repos.accounts.getById(quote.accountId);
  if (!quoter || quoter.domain === null) return;
  await enqueueDelivery(ctx, { type: "quote.revoke", quoteId: quote.id });
}
