import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { MediaAttachment } from "../../db/repositories/media.ts";
import type { Status, Visibility } from "../../db/repositories/statuses.ts";
import type { User } from "../../db/repositories/users.ts";
import { queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { isLanguageCode } from "../../lib/text/languages.ts";
import { defaultPrivacy } from "../../policies/accounts.ts";
import { type QuotePolicyName, storedQuotePolicy } from "../../policies/quotes.ts";
import { enqueueFanOut } from "../feeds/fan-out.ts";
import { prepareStatusMedia } from "../media/status-media.ts";
import { checkUsableTags } from "../moderation/tags.ts";
import { enqueuePollExpiry } from "../polls/expiry.ts";
import { type PollInput, validatePoll } from "../polls/poll-input.ts";
import { addPreviewCardJob } from "../preview-cards/fetch-card.ts";
import {
  afterQuoteStored,
  type CheckedQuote,
  checkQuoteTarget,
  quotingVisibility,
  storeQuote,
} from "../quotes/create.ts";
import { checkLength, composeText, hashtagNames } from "./compose.ts";
import { claimIdempotencyKey, idempotencyKeyOf, idempotentId } from "./idempotency.ts";
import { isVisible } from "./views.ts";

export interface CreateStatusInput {
  text: string;
  spoilerText: string;
  sensitive?: boolean;
  visibility?: Visibility;
  language?: string;
  inReplyToId?: string;
  applicationId: string | null;
  mediaIds?: string[];
  poll?: PollInput;
  idempotencyKey?: string;
  /** Ids of the only accounts the post may mention (`allowed_mentions`); undefined: any. */
  allowedMentions?: string[];
  /** The post this one quotes (`quoted_status_id`). */
  quotedStatusId?: string;
  /** Who may quote this post (`quote_approval_policy`); undefined: the author's default. */
  quotePolicy?: QuotePolicyName;
}

/** What a new post (or a scheduled one) needs once its input is checked. */
export interface CheckedStatusInput {
  media: MediaAttachment[];
  parent: Status | undefined;
  poll: { options: string[]; expiresIn: number; multiple: boolean; hideTotals: boolean } | undefined;
  quote: CheckedQuote | undefined;
}

/** Mastodon's message when media and a poll come together (PostStatusService#validate_media!). */
export const MEDIA_WITH_POLL = "Cannot attach more than 4 files";

export const REPLY_NOT_FOUND = "The post you are trying to reply to does not appear to exist.";

/**
 * A post that would mention accounts outside its `allowed_mentions` (Mastodon's
 * PostStatusService::UnexpectedMentionsError): nothing is stored; the route lists the accounts.
 */
export class UnexpectedMentionsError extends ApiError {
  readonly accounts: Account[];
  constructor(accounts: Account[]) {
    super(422, "Post would be sent to unexpected accounts");
    this.accounts = accounts;
  }
}

export function statusUris(ctx: AppContext, account: Account, id: string): { uri: string; url: string } {
  const base = ctx.config.baseUrl;
  return { uri: `${base}/users/${account.username}/statuses/${id}`, url: `${base}/@${account.username}/${id}` };
}

/** The language of a post: the one given if valid, else the user's default, else the server's. */
function postingLanguage(ctx: AppContext, user: User, asked: string | undefined): string {
  for (const l of [asked, user.settings.language ?? undefined, ctx.config.defaultLocale]) {
    if (l && isLanguageCode(l)) return l;
  }
  return "en";
}

/**
 * The checks of a new post, in Mastodon's order: media (at most 4, none beside a poll), length,
 * blank text, the poll's options and duration, the post replied to. Stores nothing.
 */
export async function checkStatusInput(
  ctx: AppContext,
  account: Account,
  input: CreateStatusInput,
): Promise<CheckedStatusInput> {
  if (input.poll && (input.mediaIds?.length ?? 0) > 0) throw new ApiError(422, MEDIA_WITH_POLL);
  const media = await prepareStatusMedia(ctx, account.id, input.mediaIds ?? []);
  checkLength(input.text, input.spoilerText);
  if (input.text.trim() === "" && media.length === 0) throw new ApiError(422, "Validation failed: Text can't be blank");
  await checkUsableTags(ctx, hashtagNames(input.text));
  const poll = input.poll ? { ...input.poll, ...validatePoll(input.poll) } : undefined;
  let parent: Status | undefined;
  if (input.inReplyToId !== undefined) {
    parent = isId(input.inReplyToId) ? await ctx.repos.statuses.getById(input.inReplyToId) : undefined;
    // A reply to a boost answers the boosted post.
    if (parent?.reblogOfId) parent = await ctx.repos.statuses.getById(parent.reblogOfId);
    if (!parent || parent.deletedAt !== null || !(await isVisible(ctx, parent, account.id))) {
      throw new ApiError(404, REPLY_NOT_FOUND);
    }
  }
  const quote =
    input.quotedStatusId === undefined ? undefined : await checkQuoteTarget(ctx, account, input.quotedStatusId);
  return { media, parent, poll, quote };
}

/** The post an `Idempotency-Key` was taken for; 404 (Mastodon's answer) when it is gone. */
async function idempotentStatus(ctx: AppContext, idemKey: string): Promise<Status | undefined> {
  const previous = await idempotentId(ctx, idemKey);
  if (previous === undefined) return undefined;
  const status = await ctx.repos.statuses.getById(previous);
  if (!status) throw notFound();
  return status;
}

/**
 * `POST /api/v1/statuses`: stores a post with its mentions and hashtags in one transaction. The
 * same `Idempotency-Key` from the same account within an hour gives back the first post: the key
 * is taken in that transaction, so the post and its key are stored together or not at all, and
 * of requests racing with one key only the first posts.
 */
export async function createStatus(
  ctx: AppContext,
  account: Account,
  user: User,
  input: CreateStatusInput,
): Promise<Status> {
  const idemKey = idempotencyKeyOf("status", account.id, input.idempotencyKey);
  if (idemKey) {
    const status = await idempotentStatus(ctx, idemKey);
    if (status) return status;
  }
  const { media, parent, poll, quote } = await checkStatusInput(ctx, account, input);
  const composed = await composeText(ctx, input.text);
  if (input.allowedMentions !== undefined) {
    const allowed = new Set(input.allowedMentions);
    const unexpected = composed.mentions.filter((a) => !allowed.has(a.id));
    if (unexpected.length > 0) throw new UnexpectedMentionsError(unexpected);
  }
  const now = new Date();
  const iso = now.toISOString();
  const id = ctx.ids.next();
  const asked = input.visibility ?? defaultPrivacy(account, user);
  const visibility = quote
    ? quotingVisibility(
        account,
        quote.quoted,
        asked,
        composed.mentions.map((a) => a.id),
      )
    : asked;
  const quotePolicy = storedQuotePolicy(input.quotePolicy ?? user.settings.quotePolicy ?? "public", visibility);
  let quoteId: string | undefined;
  const { uri, url } = statusUris(ctx, account, id);
  const pollId = poll ? ctx.ids.next() : null;
  const stored = await transactionWithJobs(ctx, async (trx, jobs) => {
    if (idemKey && !(await claimIdempotencyKey(ctx, trx, idemKey, id, now))) return false;
    await ctx.repos.statuses.insert(
      {
        id,
        uri,
        url,
        account_id: account.id,
        in_reply_to_id: parent?.id ?? null,
        in_reply_to_account_id: parent?.accountId ?? null,
        conversation_id: parent ? (parent.conversationId ?? parent.id) : id,
        text: input.text,
        content: composed.content,
        spoiler_text: input.spoilerText,
        visibility,
        sensitive: (input.sensitive ?? user.settings.sensitive === true) || input.spoilerText !== "",
        language: postingLanguage(ctx, user, input.language),
        local: true,
        application_id: input.applicationId,
        poll_id: pollId,
        quote_policy: quotePolicy,
        created_at: iso,
        updated_at: iso,
      },
      trx,
    );
    if (poll && pollId) {
      const expiresAt = new Date(now.getTime() + poll.expiresIn * 1000);
      await ctx.repos.polls.insert(
        {
          id: pollId,
          account_id: account.id,
          status_id: id,
          expires_at: expiresAt.toISOString(),
          options: poll.options,
          multiple: poll.multiple,
          hide_totals: poll.hideTotals,
          created_at: iso,
        },
        trx,
      );
      enqueuePollExpiry(jobs, pollId, expiresAt);
    }
    await ctx.repos.statuses.insertMentions(
      composed.mentions.map((a) => ({ id: ctx.ids.next(), status_id: id, account_id: a.id, created_at: iso })),
      trx,
    );
    if (composed.mentions.some((a) => a.id !== account.id)) {
      jobs.add("notifications.create", { type: "mention", statusId: id });
    }
    const tags = await ctx.repos.statuses.findOrCreateTags(composed.tags, () => ctx.ids.next(), iso, trx);
    await ctx.repos.statuses.setStatusTags(
      id,
      tags.map((t) => t.id),
      trx,
      { isNew: true },
    );
    if (parent && (visibility === "public" || visibility === "unlisted")) {
      await ctx.repos.statuses.addToCounter(parent.id, "replies_count", 1, trx);
    }
    // Direct posts are not counted (nor dated in last_status_at), as in Mastodon: that would show them.
    if (visibility !== "direct") await ctx.repos.statuses.addToAccountCount(account.id, 1, iso, trx);
    // In the transaction: the fan-out job (streaming renders the status there) and the delivery see them.
    await ctx.repos.media.attachToStatus(
      media.map((m) => m.id),
      id,
      account.id,
      trx,
    );
    if (quote) quoteId = await storeQuote(ctx, trx, jobs, { id, account }, quote, iso);
    enqueueFanOut(jobs, id);
    if (/https?:\/\//i.test(input.text)) addPreviewCardJob(jobs, id);
    // The media are attached above, so the Note carries them.
    queueDelivery(jobs, { type: "status.create", statusId: id });
    return true;
  });
  if (!stored && idemKey) {
    const first = await idempotentStatus(ctx, idemKey);
    if (first) return first;
    throw notFound();
  }
  if (stored && quoteId !== undefined) await afterQuoteStored(ctx, quoteId);
  const status = await ctx.repos.statuses.getById(id);
  if (!status) throw new Error("the new status vanished");
  return status;
}
