import type { Context } from "@fedify/fedify";
import { Article, Note, Question } from "@fedify/vocab";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { DB } from "../../db/schema.ts";
import { type JobBatch, transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { isSensitized } from "../../policies/moderation.ts";
import { enqueueFanOut, fanOutNow, fillFeedsInTransaction } from "../../services/feeds/fan-out.ts";
import { addRemoteMediaJob } from "../../services/media/remote-cache.ts";
import { enqueuePollExpiry } from "../../services/polls/expiry.ts";
import { addPreviewCardJob, mayHaveCard } from "../../services/preview-cards/fetch-card.ts";
import type { StatusParts } from "../../services/streaming/publish.ts";
import { accountForActor, remoteInfoOf } from "./actor.ts";
import { persistEmojis } from "./emoji.ts";
import { type NoteLike, type ReadNote, readNote } from "./note-read.ts";
import { hostOf, isLocalUrl, loaderOptions, sameOrigin } from "./origin.ts";
import { readQuotePolicy, resolveQuote } from "./quote.ts";
import { insertQuote } from "./quote-store.ts";

export type { NoteLike } from "./note-read.ts";

export interface PersistNoteOptions {
  /**
   * The account the activity came from. The note must be attributed to it: an actor cannot
   * create posts in someone else's name.
   */
  actor?: Account;
  /** How many unknown posts up the thread may be fetched to thread this one (default 0). */
  fetchParents?: number;
  /**
   * Fan the status out to home feeds before answering (a post that came to the inbox:
   * `fanOutNow`), instead of queueing the fan-out (fetched posts: backfill, search).
   */
  fanOutNow?: boolean;
  /** How many unknown quoted posts may be fetched down a chain of quotes (default 0). */
  fetchQuote?: number;
}

export function isNoteLike(object: unknown): object is NoteLike {
  return object instanceof Note || object instanceof Question || object instanceof Article;
}

/** The author of a note: its `attributedTo`, of the note's own origin, and `opts.actor` when given. */
async function authorOf(ctx: Context<AppContext>, object: NoteLike, opts: PersistNoteOptions): Promise<Account | null> {
  const id = object.id;
  const attribution = object.attributionId;
  if (!id || !attribution || !sameOrigin(id, attribution)) return null;
  if (opts.actor) return opts.actor.uri === attribution.href ? opts.actor : null;
  return accountForActor(ctx, attribution);
}

/** The post replied to: known here, or fetched (at most `depth` levels up) when allowed. */
async function parentOf(ctx: Context<AppContext>, object: NoteLike, depth: number): Promise<Status | undefined> {
  const target = object.replyTargetId;
  if (!target) return undefined;
  const known = await ctx.data.repos.statuses.getByUri(target.href);
  if (known || depth <= 0 || isLocalUrl(ctx, target)) return known;
  try {
    const fetched = await ctx.lookupObject(target.href, loaderOptions(ctx));
    if (!isNoteLike(fetched) || fetched.id?.href !== target.href) return undefined;
    return (await persistNote(ctx, fetched, { fetchParents: depth - 1 })) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stores the mentions, tags and media of a new (`isNew`) or edited status (the mentions only the
 * new ones); answers its hashtags and media as stored, for the fan-out's streaming.
 */
export async function storeParts(
  ctx: AppContext,
  trx: Kysely<DB>,
  jobs: JobBatch,
  status: { id: string; accountId: string; isNew?: boolean },
  read: ReadNote,
  iso: string,
  alreadyMentioned: ReadonlySet<string> = new Set(),
): Promise<StatusParts> {
  const added = read.mentions.filter((m) => !alreadyMentioned.has(m.account.id));
  await ctx.repos.statuses.insertMentions(
    added.map((m) => ({
      id: ctx.ids.next(),
      status_id: status.id,
      account_id: m.account.id,
      silent: m.silent,
      created_at: iso,
    })),
    trx,
  );
  // The job notifies only local accounts, once per post.
  if (added.some((m) => m.account.domain === null)) {
    jobs.add("notifications.create", { type: "mention", statusId: status.id });
  }
  const tags = await ctx.repos.statuses.findOrCreateTags(read.tags, () => ctx.ids.next(), iso, trx);
  await ctx.repos.statuses.setStatusTags(
    status.id,
    tags.map((t) => t.id),
    trx,
    { isNew: status.isNew },
  );
  for (const m of read.media) {
    await ctx.repos.media.insert(
      {
        id: ctx.ids.next(),
        account_id: status.accountId,
        status_id: status.id,
        type: m.type,
        remote_url: m.remoteUrl,
        file_content_type: m.contentType,
        description: m.description,
        meta: JSON.stringify(m.meta),
        processing: "complete",
        created_at: iso,
        updated_at: iso,
      },
      trx,
    );
  }
  // After the commit: copies of its media cached here, and the preview card of its first link.
  if (read.media.length > 0) addRemoteMediaJob(jobs, status.id);
  if (mayHaveCard(ctx, read.content)) addPreviewCardJob(jobs, status.id);
  // findOrCreateTags gives each tag once.
  return { tagNames: tags.map((t) => t.name.toLowerCase()), hasMedia: read.media.length > 0 };
}

/**
 * Stores a remote status from a Fedify Note, Question or Article and answers it; the stored one
 * when its URI is known already (idempotent across deliveries), null when it cannot be stored:
 * no id, of our own origin, attributed to another origin or (with `opts.actor`) to someone other
 * than the sender, or its author is suspended or of a suspended domain. Threads onto the post it
 * replies to when known (or fetched, with `fetchParents`); mentions of local and known remote
 * accounts (an addressed account without a Mention tag is a silent mention, which is how direct
 * messages reach their recipients); hashtags; attachments as media rows with their remote URL;
 * a Question's poll with its counts; custom emojis; visibility from to/cc as Mastodon derives it;
 * the post it quotes, checked (quote.ts), and who may quote it.
 * After the commit: fan-out to local followers' home feeds (queued, or at once with
 * `opts.fanOutNow`), and mention notifications.
 */
export async function persistNote(
  ctx: Context<AppContext>,
  object: NoteLike,
  opts: PersistNoteOptions = {},
): Promise<Status | null> {
  const app = ctx.data;
  const id = object.id;
  if (!id || !/^https?:$/.test(id.protocol) || isLocalUrl(ctx, id)) return null;
  const existing = await app.repos.statuses.getByUri(id.href);
  if (existing) return existing.deletedAt === null ? existing : null;
  const author = await authorOf(ctx, object, opts);
  if (!author || author.domain === null || author.suspendedAt !== null) return null;
  const domain = hostOf(id);
  const { allowed, rule } = await app.repos.instanceDomainBlocks.policyFor(domain);
  if (!allowed) return null;
  const info = await remoteInfoOf(app, author);
  const read = await readNote(ctx, object, {
    followersUrl: info?.followersUrl ?? null,
    rejectMedia: rule?.rejectMedia === true,
  });
  // A sensitized author's posts are stored sensitive (Mastodon's ActivityPub parser).
  if (isSensitized(author)) read.sensitive = true;
  const parent = await parentOf(ctx, object, opts.fetchParents ?? 0);
  const quote = await resolveQuote(ctx, object, author, opts.fetchQuote ?? 0);
  const quotePolicy = readQuotePolicy(object, {
    uri: author.uri,
    followersUrl: info?.followersUrl ?? null,
    followingUrl: info?.followingUrl ?? null,
  });
  const now = new Date();
  const iso = now.toISOString();
  const publishedMs = object.published?.epochMilliseconds;
  const createdAt = publishedMs !== undefined && publishedMs <= now.getTime() ? new Date(publishedMs) : now;
  if (read.emojis.length > 0 && rule?.rejectMedia !== true) await persistEmojis(ctx, domain, read.emojis, iso);
  const statusId = app.ids.next(createdAt);
  const pollId = read.poll ? app.ids.next(createdAt) : null;
  let feedsFilled = false;
  let parts: StatusParts | undefined;
  try {
    await transactionWithJobs(app, async (trx, jobs) => {
      await app.repos.statuses.insert(
        {
          id: statusId,
          uri: id.href,
          url: read.url,
          account_id: author.id,
          in_reply_to_id: parent?.id ?? null,
          in_reply_to_account_id: parent?.accountId ?? null,
          conversation_id: parent ? (parent.conversationId ?? parent.id) : statusId,
          text: read.text,
          content: read.content,
          spoiler_text: read.spoilerText,
          visibility: read.visibility,
          sensitive: read.sensitive,
          language: read.language,
          local: false,
          poll_id: pollId,
          quote_policy: quotePolicy,
          created_at: createdAt.toISOString(),
          updated_at: iso,
        },
        trx,
      );
      if (quote) await insertQuote(app, trx, jobs, { id: statusId, accountId: author.id }, quote, iso);
      if (read.poll && pollId) {
        await app.repos.polls.insert(
          {
            id: pollId,
            account_id: author.id,
            status_id: statusId,
            expires_at: read.poll.expiresAt,
            options: read.poll.options,
            multiple: read.poll.multiple,
            hide_totals: false,
            created_at: iso,
          },
          trx,
        );
        await app.repos.polls.setRemoteCounts(pollId, read.poll.counts, read.poll.voters, trx);
        // Local voters are told when it ends, as for local polls.
        if (read.poll.expiresAt !== null && Date.parse(read.poll.expiresAt) > now.getTime()) {
          enqueuePollExpiry(jobs, pollId, new Date(read.poll.expiresAt));
        }
      }
      parts = await storeParts(app, trx, jobs, { id: statusId, accountId: author.id, isNew: true }, read, iso);
      if (parent && (read.visibility === "public" || read.visibility === "unlisted")) {
        await app.repos.statuses.addToCounter(parent.id, "replies_count", 1, trx);
      }
      if (read.visibility !== "direct") {
        await app.repos.statuses.addToAccountCount(author.id, 1, createdAt.toISOString(), trx);
      }
      if (!opts.fanOutNow) enqueueFanOut(jobs, statusId, { immediate: true });
      // Its request fans it out: a few followers' feeds are filled here, in the same commit.
      else
        feedsFilled = await fillFeedsInTransaction(app, trx, {
          id: statusId,
          local: false,
          visibility: read.visibility,
        });
    });
  } catch (error) {
    // Another delivery of the same post won the race: the URI is unique.
    const raced = await app.repos.statuses.getByUri(id.href);
    if (raced) return raced.deletedAt === null ? raced : null;
    throw error;
  }
  const stored = await app.repos.statuses.getById(statusId);
  if (stored && opts.fanOutNow) await fanOutNow(app, stored, { feedsFilled, author, parts });
  return stored ?? null;
}
