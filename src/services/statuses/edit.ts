import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { enqueueDelivery, queueDelivery } from "../../federation/deliveries.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isLanguageCode } from "../../lib/text/languages.ts";
import { type QuotePolicyName, storedQuotePolicy } from "../../policies/quotes.ts";
import { prepareStatusMedia } from "../media/status-media.ts";
import { checkUsableTags } from "../moderation/tags.ts";
import { enqueuePollExpiry } from "../polls/expiry.ts";
import { cleanOptions, type PollInput, validatePoll } from "../polls/poll-input.ts";
import { addPreviewCardJob } from "../preview-cards/fetch-card.ts";
import { publishStatusUpdate } from "../streaming/publish.ts";
import { checkLength, composeText, hashtagNames } from "./compose.ts";
import { MEDIA_WITH_POLL } from "./create.ts";

export interface EditStatusInput {
  text?: string;
  spoilerText?: string;
  sensitive?: boolean;
  language?: string;
  /** The full new list of attachments; undefined keeps them. */
  mediaIds?: string[];
  /** The poll after the edit: none removes the post's poll, as Mastodon's edit does. */
  poll?: PollInput;
  /** Who may quote it from now on (`quote_approval_policy`); undefined keeps the policy. */
  quotePolicy?: QuotePolicyName;
}

/**
 * `PUT /api/v1/statuses/:id`: changes the text, content warning, sensitivity and language of the
 * author's own post and records the edit (the first edit also records the original version).
 * Newly mentioned accounts are added; earlier mentions stay so nobody loses a post they saw.
 * A poll is replaced by the one given (its closing time counted again from now; changed options
 * or `multiple` forget every vote, as Mastodon does) or removed when none is given.
 */
export async function editStatus(
  ctx: AppContext,
  account: Account,
  status: Status,
  input: EditStatusInput,
): Promise<Status> {
  // Mastodon looks the status up among the caller's own: anyone else's is not found.
  if (status.accountId !== account.id || status.reblogOfId !== null) throw notFound();
  const text = input.text ?? status.text;
  const spoilerText = input.spoilerText ?? status.spoilerText;
  checkLength(text, spoilerText);
  const media =
    input.mediaIds === undefined ? undefined : await prepareStatusMedia(ctx, account.id, input.mediaIds, status.id);
  const hasMedia = media ? media.length > 0 : (await ctx.repos.media.listByStatuses([status.id])).length > 0;
  if (input.poll && hasMedia) throw new ApiError(422, MEDIA_WITH_POLL);
  if (text.trim() === "" && !hasMedia) throw new ApiError(422, "Validation failed: Text can't be blank");
  await checkUsableTags(ctx, hashtagNames(text));
  const poll = input.poll ? { ...input.poll, ...validatePoll(input.poll) } : undefined;
  const previousPoll = status.pollId ? await ctx.repos.polls.getById(status.pollId) : undefined;
  const composed = await composeText(ctx, text);
  const iso = new Date().toISOString();
  const sensitive = input.sensitive ?? (spoilerText !== "" ? true : status.sensitive);
  const language = input.language && isLanguageCode(input.language) ? input.language : status.language;
  // An edit that changes nothing is no edit (Mastodon's NoChangesSubmittedError): no history
  // entry, no `update` notification. A poll always changes (its end moves), as in Mastodon.
  const sameMedia =
    media === undefined ||
    media.map((m) => m.id).join() === (await ctx.repos.media.listByStatuses([status.id])).map((m) => m.id).join();
  const unchanged =
    text === status.text &&
    spoilerText === status.spoilerText &&
    sensitive === status.sensitive &&
    language === status.language &&
    sameMedia &&
    !poll &&
    !previousPoll;
  const quotePolicy =
    input.quotePolicy === undefined ? status.quotePolicy : storedQuotePolicy(input.quotePolicy, status.visibility);
  if (unchanged) {
    // Only who may quote it changed: no new version, but remote servers learn the new policy.
    if (quotePolicy !== status.quotePolicy) return changeQuotePolicy(ctx, status, quotePolicy);
    return status;
  }
  const already = new Set((await ctx.repos.statuses.mentionsOf([status.id])).get(status.id) ?? []);
  await transactionWithJobs(ctx, async (trx, jobs) => {
    const repo = ctx.repos.statuses;
    if (status.editedAt === null) {
      await repo.insertEdit(
        {
          id: ctx.ids.next(new Date(status.createdAt)),
          status_id: status.id,
          account_id: account.id,
          text: status.text,
          content: status.content,
          spoiler_text: status.spoilerText,
          sensitive: status.sensitive,
          poll_options: previousPoll ? JSON.stringify(previousPoll.options) : null,
          created_at: status.createdAt,
        },
        trx,
      );
    }
    let pollId: string | null = null;
    if (poll) {
      const expiresAt = new Date(Date.now() + poll.expiresIn * 1000);
      const row = {
        expires_at: expiresAt.toISOString(),
        options: poll.options,
        multiple: poll.multiple,
        hide_totals: poll.hideTotals,
      };
      if (previousPoll) {
        pollId = previousPoll.id;
        const changed =
          JSON.stringify(cleanOptions(previousPoll.options)) !== JSON.stringify(poll.options) ||
          previousPoll.multiple !== poll.multiple;
        if (changed) await ctx.repos.polls.deleteVotes(pollId, trx);
        await ctx.repos.polls.update(pollId, { ...row, updated_at: iso }, trx);
      } else {
        pollId = ctx.ids.next();
        await ctx.repos.polls.insert(
          { id: pollId, account_id: account.id, status_id: status.id, ...row, created_at: iso },
          trx,
        );
      }
      enqueuePollExpiry(jobs, pollId, expiresAt);
    } else if (previousPoll) {
      await ctx.repos.polls.delete(previousPoll.id, trx);
    }
    const editId = ctx.ids.next();
    jobs.add("notifications.create", { type: "update", statusId: status.id, activityId: editId });
    // Those who quoted it are told too (Mastodon's `quoted_update`).
    jobs.add("notifications.create", { type: "quoted_update", statusId: status.id, activityId: editId });
    await repo.insertEdit(
      {
        id: editId,
        status_id: status.id,
        account_id: account.id,
        text,
        content: composed.content,
        spoiler_text: spoilerText,
        sensitive,
        poll_options: poll ? JSON.stringify(poll.options) : null,
        created_at: iso,
      },
      trx,
    );
    await repo.update(
      status.id,
      {
        text,
        content: composed.content,
        spoiler_text: spoilerText,
        sensitive,
        language,
        poll_id: pollId,
        quote_policy: quotePolicy,
        edited_at: iso,
        updated_at: iso,
      },
      trx,
    );
    const added = composed.mentions.filter((a) => !already.has(a.id));
    await repo.insertMentions(
      added.map((a) => ({ id: ctx.ids.next(), status_id: status.id, account_id: a.id, created_at: iso })),
      trx,
    );
    // Newly mentioned accounts are notified (the job notifies each account once per post).
    if (added.some((a) => a.id !== account.id))
      jobs.add("notifications.create", { type: "mention", statusId: status.id });
    // The card follows the first link: fetched again when the text changed (or dropped with the link).
    if (text !== status.text && /https?:\/\//i.test(text + status.text)) addPreviewCardJob(jobs, status.id);
    const tags = await repo.findOrCreateTags(composed.tags, () => ctx.ids.next(), iso, trx);
    await repo.setStatusTags(
      status.id,
      tags.map((t) => t.id),
      trx,
    );
    // With new media, the Update waits until they are attached (below).
    if (!media) queueDelivery(jobs, { type: "status.update", statusId: status.id });
  });
  if (media) {
    const keep = media.map((m) => m.id);
    await ctx.repos.media.detachFromStatus(status.id, keep);
    await ctx.repos.media.attachToStatus(keep, status.id, account.id);
    await enqueueDelivery(ctx, { type: "status.update", statusId: status.id });
  }
  const updated = await ctx.repos.statuses.getById(status.id);
  if (!updated) throw new Error("the edited status vanished");
  await publishStatusUpdate(ctx, status.id);
  return updated;
}

/**
 * Sets who may quote a post (`PUT /api/v1/statuses/:id/interaction_policy`, or an edit changing
 * only that): the post is redelivered as an Update so remote servers learn it, and streams and
 * kept renders show it (the row's change is logged). No new version is recorded.
 */
export async function changeQuotePolicy(ctx: AppContext, status: Status, policy: string | null): Promise<Status> {
  if (policy !== status.quotePolicy) {
    await transactionWithJobs(ctx, async (trx, jobs) => {
      await ctx.repos.quotes.setPolicy(status.id, policy, trx);
      // An Update of its own time: reusing the last edit's id, receivers would drop it as seen.
      queueDelivery(jobs, { type: "status.update", statusId: status.id, at: new Date().toISOString() });
    });
    await publishStatusUpdate(ctx, status.id);
  }
  const updated = await ctx.repos.statuses.getById(status.id);
  if (!updated) throw new Error("the edited status vanished");
  return updated;
}
