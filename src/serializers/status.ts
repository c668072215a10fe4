import { shortcodesIn } from "../lib/text/shortcodes.ts";
import { type CustomEmojiView, serializeCustomEmoji } from "./custom-emoji.ts";
import { type BlobUrl, type MediaAttachmentView, serializeMediaAttachment } from "./media-attachment.ts";
import { type PollView, serializePoll } from "./poll.ts";
import { type PreviewCardView, serializePreviewCard } from "./preview-card.ts";

/** What the Status entities read of a status (a status row has these and more). */
export interface StatusData {
  id: string;
  uri: string;
  url: string | null;
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  /** The source text (delete and redraft, StatusSource). */
  text: string;
  /** The rendered HTML. */
  content: string;
  spoilerText: string;
  visibility: string;
  sensitive: boolean;
  language: string | null;
  editedAt: string | null;
  repliesCount: number;
  reblogsCount: number;
  favouritesCount: number;
  /** Accepted quotes of it. */
  quotesCount?: number;
  /** Who may quote it, as stored (policies/quotes.ts); null or absent: its author only. */
  quotePolicy?: string | null;
  createdAt: string;
}

export interface MentionView {
  id: string;
  username: string;
  acct: string;
  url: string;
}

/** A post's quote as the reader sees it: Quote (with the quoted post) or, inside a quoted post, ShallowQuote. */
export interface QuoteView {
  /** The quote's state, or what hides the quoted post from the reader (blocked_account...). */
  state: string;
  quotedStatusId: string | null;
  /** The quoted post's view, when shown (Quote only). */
  quoted: StatusView | null;
  /** ShallowQuote: only the quoted post's id. */
  shallow: boolean;
}

/** QuoteApproval: who may quote a post, and whether the reader may. */
export interface QuoteApprovalView {
  automatic: string[];
  manual: string[];
  currentUser: "automatic" | "manual" | "denied" | "unknown";
}

/** The viewer's own relation to a status (only with a token). */
export interface StatusViewerFlags {
  favourited: boolean;
  reblogged: boolean;
  bookmarked: boolean;
  muted: boolean;
  /** Only for the viewer's own pinnable statuses. */
  pinned?: boolean;
}

/** Everything the Status serializer needs, loaded beforehand (services/statuses/views.ts). */
export interface StatusView {
  status: StatusData;
  /** The author, already serialized as an Account. */
  account: Record<string, unknown>;
  /** Instead of `account` (then left empty), the author's Account as JSON text (services/statuses/views-text.ts). */
  accountText?: string;
  reblog: StatusView | null;
  mentions: MentionView[];
  tags: { name: string; displayName: string }[];
  application: { name: string; website: string | null } | null;
  media: readonly MediaAttachmentView[];
  /** The enabled custom emojis its text and content warning name. */
  emojis?: readonly CustomEmojiView[];
  poll: PollView | null;
  /** The preview card of its first link, once fetched (services/preview-cards/). */
  card?: PreviewCardView | null;
  viewer?: StatusViewerFlags;
  /** FilterResults of the viewer's filters (services/filters/match.ts). */
  filtered?: Record<string, unknown>[];
  /** The quote it makes (null or absent: none). */
  quote?: QuoteView | null;
  /** The reader's QuoteApproval (absent: from the stored policy, `denied` for the reader). */
  quoteApproval?: QuoteApprovalView;
}

export interface StatusSerializeOptions {
  baseUrl: string;
  blobUrl: BlobUrl;
  /** Adds the source `text` (delete and redraft). */
  withSource?: boolean;
}

export function tagUrl(baseUrl: string, name: string): string {
  return `${baseUrl}/tags/${encodeURIComponent(name.toLowerCase())}`;
}

/** What of a status's JSON is the same for every viewer and changes only with the status's own rows. */
export type StatusOwnView = Pick<
  StatusView,
  "status" | "mentions" | "tags" | "application" | "media" | "emojis" | "card"
>;

/**
 * The members of Mastodon's Status entity that `StatusOwnView` makes, in the entity's order:
 * those before the viewer's flags (`id` ... `edited_at`), then `content` (and `text`), then
 * `application` and those after `account` (`media_attachments` ... `card`). `serializeStatus`
 * puts the rest between them.
 */
export function serializeStatusOwn(view: StatusOwnView, opts: StatusSerializeOptions): Record<string, unknown> {
  const s = view.status;
  const out: Record<string, unknown> = {
    id: s.id,
    created_at: s.createdAt,
    in_reply_to_id: s.inReplyToId,
    in_reply_to_account_id: s.inReplyToAccountId,
    sensitive: s.sensitive,
    spoiler_text: s.spoilerText,
    visibility: s.visibility,
    language: s.language,
    uri: s.uri,
    url: s.url,
    replies_count: s.repliesCount,
    reblogs_count: s.reblogsCount,
    favourites_count: s.favouritesCount,
    quotes_count: s.quotesCount ?? 0,
    edited_at: s.editedAt,
    content: s.content,
  };
  if (opts.withSource) out.text = s.text;
  if (view.application) out.application = view.application;
  // Uncached remote media point at /media_proxy, which serves those of public posts (it has no viewer).
  out.media_attachments = view.media.map((m) => serializeMediaAttachment(m, opts.blobUrl, opts.baseUrl));
  out.mentions = view.mentions.map((m) => ({ id: m.id, username: m.username, url: m.url, acct: m.acct }));
  out.tags = view.tags.map((t) => ({ name: t.displayName, url: tagUrl(opts.baseUrl, t.name) }));
  out.emojis = (view.emojis ?? []).map((e) => serializeCustomEmoji(e, opts.blobUrl));
  out.card = view.card ? serializePreviewCard(view.card, opts.blobUrl) : null;
  return out;
}

/** A Status's `poll` (live tallies and the viewer's votes), with the status's emojis its options name. */
export function serializeStatusPoll(view: StatusView, opts: StatusSerializeOptions): Record<string, unknown> | null {
  if (!view.poll) return null;
  const inOptions = new Set(shortcodesIn(view.poll.poll.options));
  const pollEmojis = (view.emojis ?? []).filter((e) => inOptions.has(e.shortcode));
  return serializePoll(
    view.poll,
    pollEmojis.map((e) => serializeCustomEmoji(e, opts.blobUrl)),
  );
}

/** Mastodon's Status entity. */
export function serializeStatus(view: StatusView, opts: StatusSerializeOptions): Record<string, unknown> {
  const own = serializeStatusOwn(view, opts);
  const out: Record<string, unknown> = {};
  for (const k in own) {
    if (k === "content") {
      if (view.viewer) {
        out.favourited = view.viewer.favourited;
        out.reblogged = view.viewer.reblogged;
        out.muted = view.viewer.muted;
        out.bookmarked = view.viewer.bookmarked;
        if (view.viewer.pinned !== undefined) out.pinned = view.viewer.pinned;
      }
    } else if (k === "application" || (k === "media_attachments" && own.application === undefined)) {
      out.filtered = view.filtered ?? [];
      out.reblog = view.reblog ? serializeStatus(view.reblog, { baseUrl: opts.baseUrl, blobUrl: opts.blobUrl }) : null;
    }
    if (k === "media_attachments") out.account = view.account;
    out[k] = own[k];
  }
  out.poll = serializeStatusPoll(view, opts);
  out.quote = serializeQuote(view.quote ?? null, opts);
  out.quote_approval = serializeQuoteApproval(view);
  return out;
}

/**
 * Mastodon's Quote (`quoted_status` a full Status, its own quote shallow) or ShallowQuote
 * (`quoted_status_id`); null without a quote.
 */
export function serializeQuote(q: QuoteView | null, opts: StatusSerializeOptions): Record<string, unknown> | null {
  if (q === null) return null;
  if (q.shallow) return { state: q.state, quoted_status_id: q.quotedStatusId };
  return {
    state: q.state,
    quoted_status: q.quoted ? serializeStatus(q.quoted, { baseUrl: opts.baseUrl, blobUrl: opts.blobUrl }) : null,
  };
}

/** Mastodon's QuoteApproval for the reader. */
export function serializeQuoteApproval(view: Pick<StatusView, "quoteApproval">): Record<string, unknown> {
  const a = view.quoteApproval;
  if (a === undefined) return { automatic: [], manual: [], current_user: "denied" };
  return { automatic: a.automatic, manual: a.manual, current_user: a.currentUser };
}

/** `quote` and `quote_approval` as the JSON text that ends a Status (after `poll`). */
export function quotePartsText(
  view: Pick<StatusView, "quote" | "quoteApproval">,
  opts: StatusSerializeOptions,
): string {
  return `,"quote":${JSON.stringify(serializeQuote(view.quote ?? null, opts))},"quote_approval":${JSON.stringify(serializeQuoteApproval(view))}`;
}

/** StatusSource: the plain text to edit. */
export function serializeStatusSource(s: Pick<StatusData, "id" | "text" | "spoilerText">): Record<string, unknown> {
  return { id: s.id, text: s.text, spoiler_text: s.spoilerText };
}

/** One StatusEdit, with the custom emojis that version names. */
export function serializeStatusEdit(
  edit: { content: string; spoilerText: string; sensitive: boolean; createdAt: string; pollOptions?: string[] | null },
  account: Record<string, unknown>,
  emojis: readonly CustomEmojiView[],
  blobUrl: BlobUrl,
  quote?: QuoteView | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    content: edit.content,
    spoiler_text: edit.spoilerText,
    sensitive: edit.sensitive,
    created_at: edit.createdAt,
    account,
  };
  // The poll's options at that version (Mastodon's StatusEdit `poll`), when it had one.
  if (edit.pollOptions && edit.pollOptions.length > 0)
    out.poll = { options: edit.pollOptions.map((title) => ({ title })) };
  out.media_attachments = [];
  out.emojis = emojis.map((e) => serializeCustomEmoji(e, blobUrl));
  // The post each version quoted, shallow (Mastodon's StatusEdit `quote`), when it quotes one.
  if (quote) out.quote = { state: quote.state, quoted_status_id: quote.quotedStatusId };
  return out;
}
