import type { Context } from "@fedify/fedify";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { isSensitized } from "../../policies/moderation.ts";
import { destroyMediaAttachment } from "../../services/media/media-attachments.ts";
import { addPreviewCardJob, mayHaveCard } from "../../services/preview-cards/fetch-card.ts";
import { persistEmojis } from "./emoji.ts";
import { storeParts } from "./note.ts";
import { type NoteLike, readNote } from "./note-read.ts";
import { hostOf, sameOrigin } from "./origin.ts";

/**
 * Applies a remote Update of a Note or Question to the stored status, as a local edit does: the
 * first edit also records the original version, each edit a history entry, newly mentioned
 * accounts are added (earlier mentions stay), tags replaced, attachments replaced by URL, and
 * local boosters get an `update` notification. A Question whose text is unchanged only has its
 * counts refreshed (no history entry). Visibility never changes on edit (as in Mastodon).
 * Answers false when the update is refused: the sender is not the author, the object is of
 * another origin, or it is older than the stored version.
 */
export async function updateNote(
  ctx: Context<AppContext>,
  object: NoteLike,
  status: Status,
  sender: Account,
): Promise<boolean> {
  const app = ctx.data;
  const id = object.id;
  if (!id || id.href !== status.uri || status.local || status.reblogOfId !== null) return false;
  if (status.accountId !== sender.id || !object.attributionId || object.attributionId.href !== sender.uri) return false;
  if (!sameOrigin(id, new URL(sender.uri))) return false;
  const updatedMs = object.updated?.epochMilliseconds;
  if (updatedMs !== undefined && status.editedAt !== null && updatedMs <= Date.parse(status.editedAt)) return false;
  const domain = hostOf(id);
  const rule = await app.repos.instanceDomainBlocks.ruleFor(domain);
  const info = await app.repos.accounts.remoteInfo(sender.id);
  const read = await readNote(ctx, object, {
    followersUrl: info?.followersUrl ?? null,
    rejectMedia: rule?.rejectMedia === true,
  });
  // A sensitized author's posts are stored sensitive (Mastodon's ActivityPub parser).
  if (isSensitized(sender)) read.sensitive = true;
  const poll = status.pollId ? await app.repos.polls.getById(status.pollId) : undefined;
  const oldMedia = await app.repos.media.listByStatuses([status.id]);
  const sameMedia = oldMedia.map((m) => m.remoteUrl).join("\n") === read.media.map((m) => m.remoteUrl).join("\n");
  const sameOptions = JSON.stringify(poll?.options ?? null) === JSON.stringify(read.poll?.options ?? null);
  const textChanged =
    read.content !== status.content ||
    read.spoilerText !== status.spoilerText ||
    read.sensitive !== status.sensitive ||
    !sameMedia ||
    !sameOptions;
  const iso = new Date().toISOString();
  if (read.emojis.length > 0 && rule?.rejectMedia !== true) await persistEmojis(ctx, domain, read.emojis, iso);
  if (!textChanged) {
    if (poll && read.poll) await app.repos.polls.setRemoteCounts(poll.id, read.poll.counts, read.poll.voters);
    return true;
  }
  const editedAt = updatedMs !== undefined && updatedMs <= Date.now() ? new Date(updatedMs).toISOString() : iso;
  const already = new Set((await app.repos.statuses.mentionsOf([status.id])).get(status.id) ?? []);
  await transactionWithJobs(app, async (trx, jobs) => {
    const repo = app.repos.statuses;
    if (status.editedAt === null) {
      await repo.insertEdit(
        {
          id: app.ids.next(new Date(status.createdAt)),
          status_id: status.id,
          account_id: sender.id,
          text: status.text,
          content: status.content,
          spoiler_text: status.spoilerText,
          sensitive: status.sensitive,
          poll_options: poll ? JSON.stringify(poll.options) : null,
          created_at: status.createdAt,
        },
        trx,
      );
    }
    let pollId = poll?.id ?? null;
    if (read.poll) {
      const row = {
        expires_at: read.poll.expiresAt,
        options: read.poll.options,
        multiple: read.poll.multiple,
        hide_totals: false,
      };
      if (poll) {
        if (!sameOptions) await app.repos.polls.deleteVotes(poll.id, trx);
        await app.repos.polls.update(poll.id, { ...row, updated_at: iso }, trx);
      } else {
        pollId = app.ids.next();
        await app.repos.polls.insert(
          { id: pollId, account_id: sender.id, status_id: status.id, ...row, created_at: iso },
          trx,
        );
      }
      await app.repos.polls.setRemoteCounts(pollId as string, read.poll.counts, read.poll.voters, trx);
    } else if (poll) {
      await app.repos.polls.delete(poll.id, trx);
      pollId = null;
    }
    const editId = app.ids.next();
    jobs.add("notifications.create", { type: "update", statusId: status.id, activityId: editId });
    // Local accounts whose posts quote it are told too (Mastodon's `quoted_update`).
    jobs.add("notifications.create", { type: "quoted_update", statusId: status.id, activityId: editId });
    await repo.insertEdit(
      {
        id: editId,
        status_id: status.id,
        account_id: sender.id,
        text: read.text,
        content: read.content,
        spoiler_text: read.spoilerText,
        sensitive: read.sensitive,
        poll_options: read.poll ? JSON.stringify(read.poll.options) : null,
        created_at: editedAt,
      },
      trx,
    );
    await repo.update(
      status.id,
      {
        text: read.text,
        content: read.content,
        spoiler_text: read.spoilerText,
        sensitive: read.sensitive,
        language: read.language ?? status.language,
        poll_id: pollId,
        edited_at: editedAt,
        updated_at: iso,
      },
      trx,
    );
    const keptUrls = new Set(oldMedia.map((m) => m.remoteUrl));
    const parts = { ...read, media: sameMedia ? [] : read.media.filter((m) => !keptUrls.has(m.remoteUrl)) };
    await storeParts(app, trx, jobs, { id: status.id, accountId: sender.id }, parts, iso, already);
    // A link removed by the edit takes its card away (storeParts queues the fetch for a link there now).
    if (read.content !== status.content && mayHaveCard(app, status.content)) addPreviewCardJob(jobs, status.id);
  });
  if (!sameMedia) {
    const wanted = new Set(read.media.map((m) => m.remoteUrl));
    for (const m of oldMedia) if (!wanted.has(m.remoteUrl ?? "")) await destroyMediaAttachment(app, m);
  }
  return true;
}
