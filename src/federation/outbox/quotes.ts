import type { Context } from "@fedify/fedify";
import {
  Accept,
  Delete,
  InteractionPolicy,
  InteractionRule,
  type Note,
  PUBLIC_COLLECTION,
  type Question,
  QuoteAuthorization,
  QuoteRequest,
  Reject,
} from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { NoteQuote } from "../../db/repositories/quote-federation.ts";
import type { Quote } from "../../db/repositories/quotes.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { parseQuotePolicy } from "../../policies/quotes.ts";

/** Where a local author's stamps live (FEP-044f wants them dereferenceable). */
export const QUOTE_AUTHORIZATION_PATH = "/users/{identifier}/quote_authorizations/{id}";

/** The URI of the stamp approving quote `quoteId` of a post by the local account `username`. */
export function stampUri(fctx: Context<AppContext>, username: string, quoteId: string): URL {
  return fctx.getObjectUri(QuoteAuthorization, { identifier: username, id: quoteId });
}

/**
 * `interactionPolicy.canQuote` of a local post, as Mastodon writes it: the public collection,
 * the author's followers or following collection by the policy's words, and the author alone
 * when nobody else may quote (an empty list would read as "no policy" to some servers).
 */
export function quoteInteractionPolicy(
  fctx: Context<AppContext>,
  author: Account,
  raw: string | null,
): InteractionPolicy {
  const policy = parseQuotePolicy(raw);
  const uris = (words: string[]) =>
    words.flatMap((w) => {
      if (w === "public") return [PUBLIC_COLLECTION];
      if (w === "followers") return [fctx.getFollowersUri(author.username)];
      if (w === "following") return [fctx.getFollowingUri(author.username)];
      return [];
    });
  const automatic = uris(policy.automatic);
  const manual = uris(policy.manual);
  return new InteractionPolicy({
    canQuote: new InteractionRule({
      automaticApprovals: automatic.length > 0 ? automatic : [new URL(author.uri)],
      manualApprovals: manual,
    }),
  });
}

/**
 * What a quoting Note carries: `quote` (with `_misskey_quote`, `quoteUri` and `quoteUrl` for
 * older readers) while the quote stands, and `quoteAuthorization` once it is accepted: our own
 * stamp's URI for a local quoted post, the remote author's for a remote one.
 */
export function noteQuoteValues(
  fctx: Context<AppContext>,
  q: NoteQuote | undefined,
): { quote?: URL; quoteUrl?: URL; quoteAuthorization?: URL } {
  if (!q?.quotedUri || !URL.canParse(q.quotedUri)) return {};
  const { quote } = q;
  if (quote.state === "rejected" || quote.state === "revoked" || quote.state === "deleted") return {};
  const quoted = new URL(q.quotedUri);
  const out: { quote?: URL; quoteUrl?: URL; quoteAuthorization?: URL } = { quote: quoted, quoteUrl: quoted };
  if (quote.state !== "accepted") return out;
  if (q.quotedLocal && q.quotedAuthorUsername) {
    out.quoteAuthorization = stampUri(fctx, q.quotedAuthorUsername, quote.id);
  } else if (quote.approvalUri && URL.canParse(quote.approvalUri)) {
    out.quoteAuthorization = new URL(quote.approvalUri);
  }
  return out;
}

/** The stamp of an accepted quote of a local post: who approved, which post quotes which. */
export function quoteAuthorization(
  fctx: Context<AppContext>,
  author: Account,
  quote: Quote,
  quoting: Status,
  quoted: Status,
): QuoteAuthorization {
  return new QuoteAuthorization({
    id: stampUri(fctx, author.username, quote.id),
    attribution: new URL(author.uri),
    interactingObject: new URL(quoting.uri),
    interactionTarget: new URL(quoted.uri),
  });
}

/**
 * A local author asks a remote one to approve a quote: `object` the quoted post, `instrument`
 * the quoting Note itself (inlined, so the quoted server need not fetch it).
 */
export function quoteRequest(
  quoter: Account,
  quote: Quote & { activityUri: string },
  quotedAuthor: Account,
  quotedUri: string,
  note: Note | Question,
): QuoteRequest {
  return new QuoteRequest({
    id: new URL(quote.activityUri),
    actor: new URL(quoter.uri),
    to: new URL(quotedAuthor.uri),
    object: new URL(quotedUri),
    instrument: note,
  });
}

/** A remote QuoteRequest as the answer names it: its id, the posts, and a key for the answer's id. */
export interface QuoteRequestRef {
  /** The quote's row id when stored (then also the stamp's id), else any unique key. */
  key: string;
  activityUri: string;
  quotingUri: string;
  quotedUri: string;
}

/**
 * The local quoted author's answer to a remote QuoteRequest: Accept with the stamp's URI as
 * `result`, or Reject. The request is named by its id and described again (actor, object,
 * instrument), as Mastodon's answers are.
 */
export function answerQuoteRequest(
  fctx: Context<AppContext>,
  accept: boolean,
  author: Account,
  requester: Account,
  ref: QuoteRequestRef,
): Accept | Reject {
  const request = new QuoteRequest({
    ...(URL.canParse(ref.activityUri) ? { id: new URL(ref.activityUri) } : {}),
    actor: new URL(requester.uri),
    object: new URL(ref.quotedUri),
    instrument: new URL(ref.quotingUri),
  });
  const values = {
    id: new URL(`${author.uri}#${accept ? "accepts" : "rejects"}/quote_requests/${ref.key}`),
    actor: new URL(author.uri),
    to: new URL(requester.uri),
    object: request,
  };
  return accept ? new Accept({ ...values, result: stampUri(fctx, author.username, ref.key) }) : new Reject(values);
}

/** A revoked approval: `Delete` of the stamp, which the quoting server reads as the end of the quote. */
export function deleteStamp(fctx: Context<AppContext>, author: Account, quote: Quote, to: Account): Delete {
  const stamp = quote.approvalUri && URL.canParse(quote.approvalUri) ? new URL(quote.approvalUri) : null;
  const id = stamp ?? stampUri(fctx, author.username, quote.id);
  return new Delete({
    id: new URL(`${id.href}#delete`),
    actor: new URL(author.uri),
    to: new URL(to.uri),
    object: id,
  });
}
