import type { Context } from "@fedify/fedify";
import {
  Collection,
  type Create,
  type Document,
  Hashtag,
  LanguageString,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  type Question,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { CustomEmoji } from "../../db/repositories/custom-emojis.ts";
import type { MediaAttachment } from "../../db/repositories/media.ts";
import type { NoteQuote } from "../../db/repositories/quote-federation.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { sensitiveShown } from "../../policies/moderation.ts";
import type { PollView } from "../../serializers/poll.ts";
import { loadEmojis, statusEmojiSource } from "../../services/custom-emojis/views.ts";
import { loadPollViews } from "../../services/polls/views.ts";
import { toEmojiTag } from "./emoji.ts";
import { MastodonCreate, MastodonNote, MastodonQuestion, mastodonDocument } from "./mastodon-terms.ts";
import { noteQuoteValues, quoteInteractionPolicy } from "./quotes.ts";

/** Everything `toNote` needs about one status, loaded by `loadNoteSources` (no queries in `toNote`). */
export interface NoteSource {
  status: Status;
  author: Account;
  /** The URI of the status it replies to. */
  inReplyToUri: string | null;
  /** The mentioned accounts (not deleted). */
  mentions: Account[];
  tags: { name: string; displayName: string }[];
  media: MediaAttachment[];
  emojis: CustomEmoji[];
  poll: PollView | null;
  /** The post it quotes, if any (FEP-044f). */
  quote: NoteQuote | undefined;
}

const unique = (xs: Iterable<string | null>): string[] => [...new Set([...xs].filter((x): x is string => x !== null))];

/**
 * The sources of many statuses (posts, not boosts) in a bounded number of queries. Statuses
 * whose author is missing are left out.
 */
export async function loadNoteSources(ctx: AppContext, statuses: readonly Status[]): Promise<NoteSource[]> {
  if (statuses.length === 0) return [];
  const ids = statuses.map((s) => s.id);
  const [parents, mentionIds, tags, media, polls, quotes] = await Promise.all([
    ctx.repos.statuses.getByIds(unique(statuses.map((s) => s.inReplyToId))),
    ctx.repos.statuses.mentionsOf(ids),
    ctx.repos.statuses.tagsOf(ids),
    ctx.repos.media.listByStatuses(ids),
    loadPollViews(ctx, unique(statuses.map((s) => s.pollId)), undefined),
    ctx.repos.quoteFederation.noteQuotes(ids),
  ]);
  const accountIds = unique([...statuses.map((s) => s.accountId), ...[...mentionIds.values()].flat()]);
  const accounts = new Map((await ctx.repos.accounts.getByIds(accountIds)).map((a) => [a.id, a]));
  const parentUri = new Map(parents.map((p) => [p.id, p.uri]));
  const withAuthor = statuses.flatMap((s) => {
    const author = accounts.get(s.accountId);
    return author ? [{ s, author }] : [];
  });
  const emojis = await loadEmojis(
    ctx,
    withAuthor.map(({ s, author }) =>
      statusEmojiSource(s, author, s.pollId ? polls.get(s.pollId)?.poll.options : undefined),
    ),
  );
  return withAuthor.map(({ s, author }, i) => ({
    status: s,
    author,
    inReplyToUri: s.inReplyToId === null ? null : (parentUri.get(s.inReplyToId) ?? null),
    mentions: (mentionIds.get(s.id) ?? []).flatMap((id) => {
      const a = accounts.get(id);
      return a && a.suspensionOrigin !== "deleted" ? [a] : [];
    }),
    tags: tags.get(s.id) ?? [],
    media: media.filter((m) => m.statusId === s.id),
    emojis: emojis[i] ?? [],
    poll: s.pollId === null ? null : (polls.get(s.pollId) ?? null),
    quote: quotes.get(s.id),
  }));
}

/** The followers collection of a local or remote author. */
function followersUri(fctx: Context<AppContext>, author: Account): URL {
  return author.domain === null ? fctx.getFollowersUri(author.username) : new URL(`${author.uri}/followers`);
}

/**
 * `to` and `cc` by visibility, as Mastodon addresses them: public to the public collection with
 * followers in `cc`; unlisted the other way round; followers-only to the followers; direct only to
 * the mentioned accounts. Mentioned accounts are always addressed.
 */
export function addressing(
  fctx: Context<AppContext>,
  status: Pick<Status, "visibility">,
  author: Account,
  mentions: readonly Account[],
): { tos: URL[]; ccs: URL[] } {
  const followers = followersUri(fctx, author);
  const mentioned = mentions.map((a) => new URL(a.uri));
  switch (status.visibility) {
    case "public":
      return { tos: [PUBLIC_COLLECTION], ccs: [followers, ...mentioned] };
    case "unlisted":
      return { tos: [followers], ccs: [PUBLIC_COLLECTION, ...mentioned] };
    case "private":
      return { tos: [followers], ccs: mentioned };
    default:
      return { tos: mentioned, ccs: [] };
  }
}

const instant = (iso: string) => Temporal.Instant.from(iso);

function blobOrRemote(ctx: AppContext, key: string | null, remote: string | null): URL | null {
  const href = key ? ctx.blobs.url(key) : remote;
  return href && URL.canParse(href) ? new URL(href) : null;
}

/** A media attachment as Mastodon sends it: a `Document` with its type, size, blurhash and focal point. */
function toDocument(ctx: AppContext, m: MediaAttachment): Document | null {
  const url = blobOrRemote(ctx, m.fileKey, m.remoteUrl);
  if (!url) return null;
  const original = (m.meta.original ?? {}) as { width?: unknown; height?: unknown };
  return mastodonDocument(
    {
      url,
      mediaType: m.fileContentType,
      name: m.description || null,
      width: typeof original.width === "number" ? original.width : null,
      height: typeof original.height === "number" ? original.height : null,
    },
    { blurhash: m.blurhash, focalPoint: m.focus ? [m.focus.x, m.focus.y] : null },
  );
}

function mentionName(fctx: Context<AppContext>, a: Account): string {
  return `@${a.username}@${a.domain ?? fctx.data.config.localDomain}`;
}

/**
 * A status as ActivityPub: a `Note`, or a `Question` when it has a poll, at its URI, addressed
 * by visibility, with mentions, hashtags and custom emojis as tags, media as documents, the
 * language as `contentMap` and the edit time as `updated`; the post it quotes and who may
 * quote it (quotes.ts). Boosts are not notes (see `announce` in `statuses.ts`).
 */
export function toNote(fctx: Context<AppContext>, src: NoteSource): Note | Question {
  const ctx = fctx.data;
  const s = src.status;
  const { tos, ccs } = addressing(fctx, s, src.author, src.mentions);
  const content = s.content;
  const values = {
    id: new URL(s.uri),
    attribution: new URL(src.author.uri),
    tos,
    ccs,
    url: s.url && URL.canParse(s.url) ? new URL(s.url) : null,
    summary: s.spoilerText === "" ? null : s.spoilerText,
    sensitive: sensitiveShown(s.sensitive, src.author),
    contents: s.language ? [content, new LanguageString(content, s.language)] : [content],
    published: instant(s.createdAt),
    updated: s.editedAt ? instant(s.editedAt) : null,
    replyTarget: src.inReplyToUri ? new URL(src.inReplyToUri) : null,
    attachments: src.media.flatMap((m) => toDocument(ctx, m) ?? []),
    tags: [
      ...src.mentions.map((a) => new Mention({ href: new URL(a.uri), name: mentionName(fctx, a) })),
      ...src.tags.map(
        (t) =>
          new Hashtag({
            href: new URL(`${ctx.config.baseUrl}/tags/${encodeURIComponent(t.name)}`),
            name: `#${t.displayName}`,
          }),
      ),
      ...src.emojis.map((e) => toEmojiTag(ctx, e)),
    ],
    replies: s.local ? new URL(`${s.uri}/replies`) : null,
    ...noteQuoteValues(fctx, src.quote),
    // Who may quote it, as Mastodon says it (only for posts of ours: their policy is ours to state).
    ...(s.local ? { interactionPolicy: quoteInteractionPolicy(fctx, src.author, s.quotePolicy) } : {}),
  };
  if (!src.poll) return new MastodonNote(values);
  const { poll, tally, expired } = src.poll;
  const options = poll.options.map(
    (name, i) => new Note({ name, replies: new Collection({ totalItems: tally.perOption.get(i) ?? 0 }) }),
  );
  const end = poll.expiresAt ? instant(poll.expiresAt) : null;
  return new MastodonQuestion({
    ...values,
    ...(poll.multiple ? { inclusiveOptions: options } : { exclusiveOptions: options }),
    endTime: end,
    closed: expired ? end : null,
    voters: tally.votersCount,
  });
}

/** One status's Note or Question (loads its source first). */
export async function noteOf(fctx: Context<AppContext>, status: Status): Promise<Note | Question | null> {
  const [src] = await loadNoteSources(fctx.data, [status]);
  return src ? toNote(fctx, src) : null;
}

/** The `Create` of a local post, at `{uri}/activity` as Mastodon's, carrying its note's addressing. */
export function createOf(
  fctx: Context<AppContext>,
  src: NoteSource,
  note: Note | Question = toNote(fctx, src),
): Create {
  const { tos, ccs } = addressing(fctx, src.status, src.author, src.mentions);
  return new MastodonCreate({
    id: new URL(`${src.status.uri}/activity`),
    actor: new URL(src.author.uri),
    object: note,
    tos,
    ccs,
    published: instant(src.status.createdAt),
  });
}
