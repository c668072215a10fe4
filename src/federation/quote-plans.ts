import type { AppContext } from "../context.ts";
import type { Account } from "../db/repositories/accounts.ts";
import type { Delivery } from "./deliveries.ts";
import type { DeliveryPlan } from "./delivery-plans.ts";

type QuoteDelivery = Extract<Delivery, { type: `quote.${string}` }>;

async function accountOf(ctx: AppContext, id: string | null, local: boolean): Promise<Account | undefined> {
  if (id === null) return undefined;
  const account = await ctx.repos.accounts.getById(id);
  if (!account || (account.domain === null) !== local) return undefined;
  return account;
}

/**
 * The plans of quote activities (FEP-044f): a local author's QuoteRequest to the remote quoted
 * author; a local quoted author's Accept or Reject of a remote QuoteRequest; and the Delete of a
 * revoked stamp, to the quoting author and the quoted author's followers (servers that may
 * show the quote).
 */
export async function planQuoteDelivery(ctx: AppContext, d: QuoteDelivery): Promise<DeliveryPlan | undefined> {
  switch (d.type) {
    case "quote.request": {
      const quote = await ctx.repos.quotes.byId(d.quoteId);
      if (quote?.state !== "pending" || quote.quotedStatusId === null) return undefined;
      const activityUri = quote.activityUri;
      if (activityUri === null) return undefined;
      const [sender, target, status, quoted] = await Promise.all([
        accountOf(ctx, quote.accountId, true),
        accountOf(ctx, quote.quotedAccountId, false),
        ctx.repos.statuses.getById(quote.statusId),
        ctx.repos.statuses.getById(quote.quotedStatusId),
      ]);
      if (!sender || !target || !status || status.deletedAt !== null || !quoted) return undefined;
      return {
        sender,
        recipients: await ctx.repos.delivery.remoteAccounts([target.id]),
        build: async (fctx, out) => {
          const note = await out.noteOf(fctx, status);
          return note ? [out.quoteRequest(sender, { ...quote, activityUri }, target, quoted.uri, note)] : [];
        },
      };
    }
    case "quote.accept":
    case "quote.reject": {
      const accept = d.type === "quote.accept";
      const [sender, requester, quoted, quote] = await Promise.all([
        accountOf(ctx, d.accountId, true),
        accountOf(ctx, d.requesterId, false),
        ctx.repos.statuses.getById(d.quotedStatusId),
        d.quoteId === null ? undefined : ctx.repos.quotes.byId(d.quoteId),
      ]);
      if (!sender || !requester || !quoted) return undefined;
      // An Accept stands only for a quote still accepted (a revocation since sends its Delete).
      if (accept && (quote?.state !== "accepted" || quote.quotedStatusId !== quoted.id)) return undefined;
      const ref = {
        key: d.quoteId ?? d.key,
        activityUri: d.activityUri,
        quotingUri: d.quotingUri,
        quotedUri: quoted.uri,
      };
      return {
        sender,
        recipients: await ctx.repos.delivery.remoteAccounts([requester.id]),
        build: async (fctx, out) => [out.answerQuoteRequest(fctx, accept, sender, requester, ref)],
      };
    }
    case "quote.revoke": {
      const quote = await ctx.repos.quotes.byId(d.quoteId);
      if (quote?.state !== "revoked") return undefined;
      const [sender, quoter] = await Promise.all([
        accountOf(ctx, quote.quotedAccountId, true),
        ctx.repos.accounts.getById(quote.accountId),
      ]);
      if (!sender || !quoter || quoter.domain === null) return undefined;
      const recipients = [
        ...(await ctx.repos.delivery.remoteAccounts([quoter.id])),
        ...(await ctx.repos.delivery.remoteFollowers(sender.id)),
      ];
      return {
        sender,
        recipients,
        build: async (fctx, out) => [out.deleteStamp(fctx, sender, quote, quoter)],
      };
    }
  }
}
