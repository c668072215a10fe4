import { Note, type QuoteRequest } from "@fedify/vocab";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { changeQuoteState } from "../../services/quotes/state.ts";
import { enqueueDelivery } from "../deliveries.ts";
import { localPost } from "../dispatchers/objects.ts";
import { stampUri } from "../outbox/quotes.ts";
import { isNoteLike, persistNote } from "../persist/note.ts";
import { isLocalUrl, loaderOptions, sameOrigin } from "../persist/origin.ts";
import { mayQuoteAtOnce } from "../persist/quote.ts";
import { type Ctx, listener } from "./common.ts";

/** How many unknown quoted posts the imported quoting post may fetch (its quote is ours: none). */
const FETCH_QUOTE = 0;

/** The local post a QuoteRequest's `object` names, if it is one that may be quoted at all. */
async function quotedLocalPost(
  ctx: Ctx,
  activity: QuoteRequest,
): Promise<{ status: Status; author: Account } | undefined> {
  const objectId = activity.objectId;
  if (!objectId || !isLocalUrl(ctx, objectId)) return undefined;
  const parsed = ctx.parseUri(objectId);
  if (parsed?.type !== "object" || parsed.class !== Note) return undefined;
  const found = await localPost(ctx.data, parsed.values.identifier ?? "", parsed.values.id ?? "");
  // Mastodon answers nothing for posts that are not distributable.
  if (!found || (found.status.visibility !== "public" && found.status.visibility !== "unlisted")) return undefined;
  return found;
}

/**
 * The quoting post (the `instrument`): known here, else taken from the request when it is
 * inlined from the sender's own origin, else fetched. It must be the sender's.
 */
async function quotingPost(ctx: Ctx, activity: QuoteRequest, sender: Account): Promise<Status | undefined> {
  const id = activity.instrumentId;
  if (!id || !sameOrigin(id, new URL(sender.uri))) return undefined;
  const known = await ctx.data.repos.statuses.getByUri(id.href);
  if (known) return known.accountId === sender.id && known.deletedAt === null ? known : undefined;
  try {
    const instrument = await activity.getInstrument(loaderOptions(ctx));
    if (!isNoteLike(instrument) || instrument.id?.href !== id.href) return undefined;
    return (await persistNote(ctx, instrument, { actor: sender, fetchQuote: FETCH_QUOTE })) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A remote account asks to quote a local post (FEP-044f, Mastodon's QuoteRequest): when the
 * post's policy lets the sender quote it at once, the quote is recorded accepted, the quoted
 * author notified, and an Accept with our stamp's URI goes back; otherwise a Reject, and a quote
 * already known here is recorded rejected. Posts that may not be quoted at all are not answered.
 */
export const onQuoteRequest = listener<QuoteRequest>("QuoteRequest", async (ctx, activity, sender) => {
  const id = activity.id;
  if (!id || !sameOrigin(id, new URL(sender.uri))) return;
  const found = await quotedLocalPost(ctx, activity);
  const instrumentId = activity.instrumentId;
  if (!found || !instrumentId) return;
  const app = ctx.data;
  const allowed = await mayQuoteAtOnce(app, sender, found.status);
  const quoting = allowed
    ? await quotingPost(ctx, activity, sender)
    : await app.repos.statuses.getByUri(instrumentId.href);
  const quote = quoting ? await app.repos.quotes.byQuotingStatus(quoting.id) : undefined;
  // Sanity check (Mastodon's): the post quotes this very post, and is the sender's.
  const matches = quote && quoting?.accountId === sender.id && quote.quotedStatusId === found.status.id;
  const answer = {
    accountId: found.author.id,
    requesterId: sender.id,
    activityUri: id.href,
    quotingUri: instrumentId.href,
    quotedStatusId: found.status.id,
    quoteId: matches ? quote.id : null,
    key: crypto.randomUUID(),
  };
  if (!allowed || !matches || !quoting) {
    // A pending quote the author's policy refuses is rejected (one already decided stays so).
    if (!allowed && matches && quote.state === "pending") await changeQuoteState(app, quote.id, "rejected");
    // An allowed request whose post cannot be read (or does not quote this one) gets no answer,
    // as with Mastodon: the sender may ask again.
    if (!allowed) await enqueueDelivery(app, { ...answer, type: "quote.reject" });
    return;
  }
  // Accepted with our stamp (counted, the quoted author notified, streams shown it anew).
  await changeQuoteState(app, quote.id, "accepted", {
    approvalUri: stampUri(ctx, found.author.username, quote.id).href,
  });
  await enqueueDelivery(app, { ...answer, type: "quote.accept" });
});
