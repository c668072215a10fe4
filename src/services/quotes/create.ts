import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { QuoteState } from "../../db/repositories/quotes.ts";
import type { Status, Visibility } from "../../db/repositories/statuses.ts";
import type { DB } from "../../db/schema.ts";
import type { JobBatch } from "../../infra/queue/after-commit.ts";
import { ApiError } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { quoteApprovalFor } from "../../policies/quotes.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { isVisible } from "../statuses/views.ts";
import { afterQuoteCreated } from "./federation.ts";

/** Mastodon's answer when the post to quote is unknown or may not be quoted (statuses.errors.quoted_status_not_found). */
export const QUOTE_NOT_FOUND = "The post you are trying to quote does not appear to exist.";
/** Mastodon's answer to a direct post quoting someone it does not mention (statuses.errors.quoted_user_not_mentioned). */
export const QUOTED_USER_NOT_MENTIONED = "Cannot quote a not-mentioned user in a private mention post.";

/** A post to quote, checked, and what the quoting post becomes for it. */
export interface CheckedQuote {
  quoted: Status;
  /** Accepted at once (a local post whose policy lets the quoter), else pending (a remote author is asked). */
  state: Extract<QuoteState, "accepted" | "pending">;
}

/**
 * Mastodon's `StatusPolicy#quote?` for `quoted_status_id` (a boost stands for its boosted post):
 * the quoter may see the post, is not blocked by its author, and its policy does not deny them.
 * nor blocked by the quoter. A refusal is the 404 Mastodon gives (it does not tell an unknown post from a forbidden one).
 */
export async function checkQuoteTarget(
  ctx: AppContext,
  account: Account,
  quotedStatusId: string,
): Promise<CheckedQuote> {
  let quoted = isId(quotedStatusId) ? await ctx.repos.statuses.getById(quotedStatusId) : undefined;
  if (quoted?.reblogOfId) quoted = await ctx.repos.statuses.getById(quoted.reblogOfId);
  if (!quoted || quoted.deletedAt !== null || !(await isVisible(ctx, quoted, account.id))) {
    throw new ApiError(404, QUOTE_NOT_FOUND);
  }
  // Nor may one quote an author one blocks (StatusPolicy#blocking_author?).
  if (
    quoted.accountId !== account.id &&
    (await blockMuteRelations(ctx, account.id, [quoted.accountId])).blocking.has(quoted.accountId)
  ) {
    throw new ApiError(404, QUOTE_NOT_FOUND);
  }
  const followsAuthor =
    quoted.accountId !== account.id && (await ctx.repos.follows.followedAmong(account.id, [quoted.accountId])).size > 0;
  const followedByAuthor =
    quoted.accountId !== account.id && (await ctx.repos.follows.followedAmong(quoted.accountId, [account.id])).size > 0;
  const approval = quoteApprovalFor(quoted, account.id, { followsAuthor, followedByAuthor });
  if (approval === "denied") throw new ApiError(404, QUOTE_NOT_FOUND);
  // A post that is not public or unlisted may be quoted by its author only (Quote#validate_visibility).
  if (quoted.accountId !== account.id && quoted.visibility !== "public" && quoted.visibility !== "unlisted") {
    throw new ApiError(404, QUOTE_NOT_FOUND);
  }
  return { quoted, state: quoted.local && approval === "automatic" ? "accepted" : "pending" };
}

/**
 * The visibility of a post quoting `quoted` (Mastodon's PostStatusService): quoting a private
 * post keeps the quote private; a direct post must mention the quoted post's author.
 */
export function quotingVisibility(
  account: Account,
  quoted: Status,
  visibility: Visibility,
  mentionedIds: readonly string[],
): Visibility {
  if (quoted.visibility === "private" && (visibility === "public" || visibility === "unlisted")) return "private";
  if (visibility === "direct" && quoted.accountId !== account.id && !mentionedIds.includes(quoted.accountId)) {
    throw new ApiError(422, QUOTED_USER_NOT_MENTIONED);
  }
  return visibility;
}

/**
 * Stores the quote of a new post `statusId` in the post's transaction; an accepted one counts on
 * the quoted post and notifies its author (a job, after commit). Answers the quote's id, for
 * `afterQuoteStored` once the transaction commits.
 */
export async function storeQuote(
  ctx: AppContext,
  trx: Kysely<DB>,
  jobs: JobBatch,
  quoting: { id: string; account: Account },
  checked: CheckedQuote,
  now: string,
): Promise<string> {
  const id = ctx.ids.next();
  const { quoted, state } = checked;
  const quoter = quoting.account;
  await ctx.repos.quotes.insert(
    {
      id,
      statusId: quoting.id,
      accountId: quoter.id,
      quotedStatusId: quoted.id,
      quotedAccountId: quoted.accountId,
      state,
      quotedUri: quoted.uri,
      // The QuoteRequest's id, when a remote author has to be asked (Quote#set_activity_uri).
      activityUri: quoted.local ? null : `${ctx.config.baseUrl}/users/${quoter.username}/quote_requests/${id}`,
      now,
    },
    trx,
  );
  if (state === "accepted") {
    await ctx.repos.quotes.addToQuotesCount(quoted.id, 1, trx);
    if (quoted.accountId !== quoter.id) {
      jobs.add("notifications.create", { type: "quote", statusId: quoting.id, activityId: id });
    }
  }
  return id;
}

/** After the quoting post's transaction committed: federation asks a remote author (services/quotes/federation.ts). */
export async function afterQuoteStored(ctx: AppContext, quoteId: string): Promise<void> {
  await afterQuoteCreated(ctx, quoteId);
}
