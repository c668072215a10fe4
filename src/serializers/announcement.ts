import { type CustomEmojiView, serializeCustomEmoji } from "./custom-emoji.ts";
import type { BlobUrl } from "./media-attachment.ts";
import { tagUrl } from "./status.ts";

/** A reaction to an announcement: how many gave it, and whether the viewer did. */
export interface ReactionView {
  name: string;
  /** Set when the name is a custom emoji's. */
  customEmojiId: string | null;
  count: number;
  me: boolean;
}

/** What an Announcement entity is made of, loaded beforehand (services/announcements/views.ts). */
export interface AnnouncementView {
  announcement: {
    id: string;
    startsAt: string | null;
    endsAt: string | null;
    allDay: boolean;
    publishedAt: string | null;
    updatedAt: string;
  };
  content: string;
  mentions: { id: string; username: string; url: string; acct: string }[];
  statuses: { id: string; url: string }[];
  tags: { name: string; display: string }[];
  emojis: readonly CustomEmojiView[];
  reactions: readonly ReactionView[];
  /** The local custom emojis reactions name, by shortcode. */
  reactionEmojis: ReadonlyMap<string, CustomEmojiView>;
  /** Whether the viewer dismissed it; undefined without a viewer (streaming sends it to all). */
  read?: boolean;
}

export interface AnnouncementSerializeOptions {
  baseUrl: string;
  blobUrl: BlobUrl;
}

/** Mastodon's Reaction entity; `me` only for a viewer, the images only for a custom emoji. */
export function serializeReaction(
  r: Pick<ReactionView, "name" | "count" | "me">,
  emoji: CustomEmojiView | undefined,
  withMe: boolean,
  blobUrl: BlobUrl,
): Record<string, unknown> {
  const out: Record<string, unknown> = { name: r.name };
  if (withMe) out.me = r.me;
  out.count = r.count;
  if (emoji) {
    const e = serializeCustomEmoji(emoji, blobUrl);
    out.url = e.url;
    out.static_url = e.static_url;
  }
  return out;
}

/** Mastodon's Announcement entity, members in its order. */
export function serializeAnnouncement(
  view: AnnouncementView,
  opts: AnnouncementSerializeOptions,
): Record<string, unknown> {
  const a = view.announcement;
  const withViewer = view.read !== undefined;
  const out: Record<string, unknown> = {
    id: a.id,
    content: view.content,
    starts_at: a.startsAt,
    ends_at: a.endsAt,
    all_day: a.allDay,
    published_at: a.publishedAt,
    updated_at: a.updatedAt,
  };
  if (withViewer) out.read = view.read;
  out.mentions = view.mentions.map((m) => ({ id: m.id, username: m.username, url: m.url, acct: m.acct }));
  out.statuses = view.statuses.map((s) => ({ id: s.id, url: s.url }));
  out.tags = view.tags.map((t) => ({ name: t.display, url: tagUrl(opts.baseUrl, t.name) }));
  out.emojis = view.emojis.map((e) => serializeCustomEmoji(e, opts.blobUrl));
  out.reactions = view.reactions.map((r) =>
    serializeReaction(
      r,
      r.customEmojiId === null ? undefined : view.reactionEmojis.get(r.name),
      withViewer,
      opts.blobUrl,
    ),
  );
  return out;
}
