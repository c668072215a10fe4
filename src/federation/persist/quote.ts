import type { Context } from "@fedify/fedify";
import { PUBLIC_COLLECTION, QuoteAuthorization } from "@fedify/vocab";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Quote, QuoteState } from "../../db/repositories/quotes.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { quoteApprovalFor } from "../../policies/quotes.ts";
import { blockMuteRelations } from "../../services/relationships/relationships.ts";
import { isNoteLike, persistNote } from "./note.ts";
import type { NoteLike } from "./note-read.ts";
import { hostOf, isLocalUrl, loaderOptions, sameOrigin } from "./origin.ts";

/** How long fetching a quoted post or a stamp may take (the inbox request waits for it). */
const FETCH_TIMEOUT_MS = 10_000;

const PUBLIC = new Set([PUBLIC_COLLECTION.href, "as:Public", "Public"]);

/** What a remote Note says it quotes: FEP-044f `quote`, else the older `_misskey_quote`/`quoteUrl`/`quoteUri`. */
export interface NoteQuoteClaim {
  uri: string;
  /** Only the older forms: no approval process (Mastodon's `legacy` quotes). */
  legacy: boolean;
  /** The `quoteAuthorization` stamp's URI. */
  approvalUri: string | null;
}

const httpUrl = (u: URL | null | undefined): string | null => (u && /^https?:$/.test(u.protocol) ? u.href : null);

export function readQuoteClaim(object: NoteLike): NoteQuoteClaim | null {
  const fep = httpUrl(object.quoteId);
  const uri = fep ?? httpUrl(object.quoteUrl);
  if (uri === null) return null;
  return { uri, legacy: fep === null, approvalUri: httpUrl(object.quoteAuthorizationId) };
}

const POLICY_WORDS = new Set(["public", "followers", "following", "unsupported_policy"]);

/**
 * `interactionPolicy.canQuote` of a remote post in QuoteApproval's words, as Mastodon reads it:
 * the public collection, the author's followers or following collection; the author itself
 * means nothing more; any other actor is an `unsupported_policy`. No policy: only the author.
 */
export function readQuotePolicy(
  object: NoteLike,
  author: { uri: string; followersUrl: string | null; followingUrl: string | null },
): string | null {
  const rule = object.interactionPolicy?.canQuote;
  if (!rule) return null;
  const words = (uris: URL[]) =>
    [
      ...new Set(
        uris.flatMap((u) => {
          if (PUBLIC.has(u.href)) return ["public"];
          if (u.href === author.followersUrl) return ["followers"];
          if (u.href === author.followingUrl) return ["following"];
          if (u.href === author.uri) return [];
          return ["unsupported_policy"];
        }),
      ),
    ].filter((w) => POLICY_WORDS.has(w));
  const automatic = words(rule.automaticApprovals);
  const manual = words(rule.manualApprovals);
  return automatic.length === 0 && manual.length === 0 ? null : JSON.stringify({ automatic, manual });
}

/** Whether the quoted post mentions the quoter (Mastodon lets mentioned accounts quote at once). */
async function mentions(ctx: AppContext, quoted: Status, quoter: Account): Promise<boolean> {
  return ((await ctx.repos.statuses.mentionsOf([quoted.id])).get(quoted.id) ?? []).includes(quoter.id);
}

/**
 * Mastodon's StatusPolicy#quote? for an account of another server: its own post; else a public or
 * unlisted one, with no block between them (nor of the quoter's domain by the author), that
 * mentions the quoter or whose policy approves them automatically (a manual approval is not
 * asked for in Mastodon 4.5: refused).
 */
export async function mayQuoteAtOnce(ctx: AppContext, quoter: Account, quoted: Status): Promise<boolean> {
  if (quoter.id === quoted.accountId) return true;
  if (quoted.visibility !== "public" && quoted.visibility !== "unlisted") return false;
  const rel = await blockMuteRelations(ctx, quoted.accountId, [quoter.id]);
  if (rel.blocking.has(quoter.id) || rel.blockedBy.has(quoter.id) || rel.domainBlocking.has(quoter.id)) return false;
  if (await mentions(ctx, quoted, quoter)) return true;
  const [follows, followed] = await Promise.all([
    ctx.repos.follows.followedAmong(quoter.id, [quoted.accountId]),
    ctx.repos.follows.followedAmong(quoted.accountId, [quoter.id]),
  ]);
  const approval = quoteApprovalFor(quoted, quoter.id, {
    followsAuthor: follows.size > 0,
    followedByAuthor: followed.size > 0,
  });
  return approval === "automatic";
}

/** The quoted post: known here, else fetched and stored (bounded by `depth`, never ours). */
async function quotedPost(ctx: Context<AppContext>, uri: string, depth: number): Promise<Status | undefined> {
  const known = await ctx.data.repos.statuses.getByUri(uri);
  if (known) return known.deletedAt === null && known.reblogOfId === null ? known : undefined;
  const url = new URL(uri);
  if (depth <= 0 || isLocalUrl(ctx, url)) return undefined;
  // Nothing is fetched from a domain this server does not federate with.
  if (!(await ctx.data.repos.instanceDomainBlocks.policyFor(hostOf(url))).allowed) return undefined;
  try {
    const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    const fetched = await ctx.lookupObject(uri, { ...loaderOptions(ctx), signal });
    if (!isNoteLike(fetched) || fetched.id?.href !== uri) return undefined;
    return (await persistNote(ctx, fetched, { fetchQuote: depth - 1 })) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a remote author's stamp as Mastodon's VerifyQuoteService does: it must be a
 * QuoteAuthorization at its own id, attributed to the quoted post's author (on the stamp's own
 * origin), naming this post as the quoting one and the quoted post as the target. A stamp that
 * cannot be read rejects the quote; one that says something else leaves it pending.
 */
async function verifyStamp(
  ctx: Context<AppContext>,
  approvalUri: string,
  quotingUri: string,
  quoted: Status,
): Promise<QuoteState> {
  const author = await ctx.data.repos.accounts.getById(quoted.accountId);
  const stampUrl = new URL(approvalUri);
  if (!author || isLocalUrl(ctx, stampUrl)) return "pending";
  if (!(await ctx.data.repos.instanceDomainBlocks.policyFor(hostOf(stampUrl))).allowed) return "pending";
  let stamp: unknown;
  try {
    const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
    stamp = await ctx.lookupObject(approvalUri, { ...loaderOptions(ctx), signal });
  } catch {
    stamp = null;
  }
  if (stamp === null) return "rejected";
  if (!(stamp instanceof QuoteAuthorization) || stamp.id?.href !== approvalUri) return "pending";
  const by = stamp.attributionId;
  if (!by || by.href !== author.uri || !sameOrigin(by, new URL(approvalUri))) return "pending";
  if (stamp.interactingObjectId?.href !== quotingUri || stamp.interactionTargetId?.href !== quoted.uri) {
    return "pending";
  }
  return "accepted";
}

/** A quote as the Note states it, checked, ready to store for the post. */
export interface ResolvedQuote {
  quoted: Status | undefined;
  quotedUri: string;
  state: QuoteState;
  approvalUri: string | null;
  legacy: boolean;
}

/**
 * Reads, fetches (bounded) and checks the quote of a remote post `quotingUri` by `quoter`, given
 * what is stored of it (`existing`). The state, as Mastodon sets it, except for the older forms:
 * - a self-quote, or a quote by an account the quoted post mentions, is accepted;
 * - a quote of a local post stands as our own answer to its QuoteRequest made it (the stamp a
 *   Note shows must be the one we issued); until then it is pending;
 * - a quote of a remote post with a stamp is accepted once the stamp checks out (an unchanged
 *   stamp is not fetched again); without one it is pending;
 * - the older forms (`_misskey_quote`, `quoteUrl`) carry no approval: they are shown as quotes
 *   (accepted, `legacy`) as issue 17 asks, unless a local quoted post's policy refuses the quoter.
 */
export async function resolveQuote(
  ctx: Context<AppContext>,
  object: NoteLike,
  quoter: Account,
  depth: number,
  existing?: Quote,
): Promise<ResolvedQuote | null> {
  const claim = readQuoteClaim(object);
  const quotingUri = object.id?.href;
  if (!claim || !quotingUri) return null;
  const quoted = await quotedPost(ctx, claim.uri, depth);
  const approvalUri = claim.approvalUri;
  const base = { quoted, quotedUri: claim.uri, approvalUri, legacy: claim.legacy };
  // A quoted post deleted since keeps its quote `deleted`; one not had (yet) leaves it pending.
  if (!quoted)
    return {
      ...base,
      state: existing?.state === "deleted" && existing.quotedUri === claim.uri ? "deleted" : "pending",
    };
  const app = ctx.data;
  // FEP-044f's fast track: one's own post, and a post that mentions one (Mastodon's).
  if (quoter.id === quoted.accountId || (await mentions(app, quoted, quoter))) return { ...base, state: "accepted" };
  const same = existing?.quotedStatusId === quoted.id ? existing : undefined;
  if (quoted.local) {
    if (same && same.state !== "pending") return { ...base, approvalUri: same.approvalUri, state: same.state };
    if (claim.legacy) {
      const state = (await mayQuoteAtOnce(app, quoter, quoted)) ? "accepted" : "rejected";
      return { ...base, approvalUri: null, state };
    }
    return { ...base, approvalUri: null, state: "pending" };
  }
  if (approvalUri === null) return { ...base, state: claim.legacy ? "accepted" : "pending" };
  if (same?.state === "accepted" && same.approvalUri === approvalUri) return { ...base, state: "accepted" };
  return { ...base, state: await verifyStamp(ctx, approvalUri, quotingUri, quoted) };
}
