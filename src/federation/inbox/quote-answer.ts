import type { Accept, Reject } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Quote } from "../../db/repositories/quotes.ts";
import { changeQuoteState } from "../../services/quotes/state.ts";
import { enqueueDelivery } from "../deliveries.ts";
import { isLocalUrl } from "../persist/origin.ts";
import type { Ctx } from "./common.ts";

/**
 * The local quote an Accept or Reject answers: the one whose QuoteRequest id is the object's (ours,
 * kept on the quote), asked of the sender itself. Anything else is not a quote answer.
 */
export async function quoteAnswered(ctx: Ctx, activity: Accept | Reject, sender: Account): Promise<Quote | undefined> {
  const objectId = activity.objectId;
  if (!objectId || !isLocalUrl(ctx, objectId)) return undefined;
  const quote = await ctx.data.repos.quotes.byActivityUri(objectId.href);
  if (!quote || quote.quotedAccountId !== sender.id) return undefined;
  const quoter = await ctx.data.repos.accounts.getById(quote.accountId);
  return quoter?.domain === null ? quote : undefined;
}

/**
 * The quoted author approved: the quote is accepted with the stamp named in `result` (the
 * Accept is as authoritative as the stamp, as Mastodon holds), and the quoting post goes out
 * again as an Update carrying the stamp. Only a pending quote changes.
 */
export async function acceptQuote(app: AppContext, activity: Accept, quote: Quote): Promise<void> {
  if (quote.state !== "pending") return;
  const result = activity.resultId;
  if (!result || !/^https?:$/.test(result.protocol)) return;
  const at = new Date().toISOString();
  await changeQuoteState(app, quote.id, "accepted", { approvalUri: result.href });
  await enqueueDelivery(app, { type: "status.update", statusId: quote.statusId, at });
}

/** The quoted author refused (or withdrew an approval): rejected, or revoked once accepted. */
export async function rejectQuote(app: AppContext, quote: Quote): Promise<void> {
  if (quote.state === "rejected" || quote.state === "revoked") return;
  await changeQuoteState(app, quote.id, quote.state === "accepted" ? "revoked" : "rejected");
}

/**
 * Delete of a QuoteAuthorization: the quote it approved, if the sender is its quoted author, is
 * revoked (FEP-044f revocation). False when the URI is no stamp we hold.
 */
export async function revokeStamp(app: AppContext, uri: string, sender: Account): Promise<boolean> {
  const quote = await app.repos.quotes.byApprovalUri(uri);
  if (quote?.quotedAccountId !== sender.id) return false;
  await rejectQuote(app, quote);
  return true;
}
