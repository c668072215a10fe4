import type { AppContext } from "../../context.ts";
import type { Announcement } from "../../db/repositories/announcements.ts";
import type { CustomEmoji } from "../../db/repositories/custom-emojis.ts";
import { acctOf } from "../../serializers/account.ts";
import { type AnnouncementView, serializeAnnouncement } from "../../serializers/announcement.ts";
import { loadEmojis } from "../custom-emojis/views.ts";
import { composeText } from "../statuses/compose.ts";

/**
 * Announcement entities, as `viewerId` sees them (`read`, and `me` on reactions), or as streaming
 * sends them to everyone (no viewer). The text is rendered when served, as Mastodon does, so a
 * mention links to the account as it is now.
 */
export async function announcementsJson(
  ctx: AppContext,
  announcements: readonly Announcement[],
  viewerId: string | null,
): Promise<Record<string, unknown>[]> {
  if (announcements.length === 0) return [];
  const ids = announcements.map((a) => a.id);
  const [reactions, dismissed, emojis, statuses] = await Promise.all([
    ctx.repos.announcements.reactions(ids, viewerId),
    viewerId === null ? Promise.resolve(new Set<string>()) : ctx.repos.announcements.dismissedAmong(viewerId, ids),
    loadEmojis(
      ctx,
      announcements.map((a) => ({ domain: null, texts: [a.text] })),
    ),
    ctx.repos.statuses.getByIds([...new Set(announcements.flatMap((a) => a.statusIds))]),
  ]);
  const customNames = [...new Set(reactions.filter((r) => r.customEmojiId !== null).map((r) => r.name))];
  const reactionEmojis = new Map<string, CustomEmoji>(
    (customNames.length === 0
      ? []
      : await ctx.repos.customEmojis.findEnabled([{ domain: null, shortcodes: customNames }])
    ).map((e) => [e.shortcode, e]),
  );
  // Only public and unlisted posts, as Mastodon shows.
  const shownStatuses = new Map(
    statuses
      .filter((s) => s.deletedAt === null && (s.visibility === "public" || s.visibility === "unlisted"))
      .map((s) => [s.id, { id: s.id, url: s.url ?? s.uri }]),
  );
  const opts = { baseUrl: ctx.config.baseUrl, blobUrl: (key: string) => ctx.blobs.url(key) };
  const out: Record<string, unknown>[] = [];
  for (const [i, a] of announcements.entries()) {
    const composed = await composeText(ctx, a.text);
    const view: AnnouncementView = {
      announcement: a,
      content: composed.content,
      mentions: composed.mentions.map((m) => ({
        id: m.id,
        username: m.username,
        url: m.url ?? m.uri,
        acct: acctOf(m),
      })),
      statuses: a.statusIds.flatMap((id) => {
        const s = shownStatuses.get(id);
        return s ? [s] : [];
      }),
      tags: composed.tags,
      emojis: emojis[i] ?? [],
      reactions: reactions.filter((r) => r.announcementId === a.id),
      reactionEmojis,
      read: viewerId === null ? undefined : dismissed.has(a.id),
    };
    out.push(serializeAnnouncement(view, opts));
  }
  return out;
}

/** `GET /api/v1/announcements`: the published announcements as `accountId` sees them, dismissed ones only with `withDismissed`. */
export async function publishedAnnouncementsJson(
  ctx: AppContext,
  accountId: string,
  withDismissed: boolean,
): Promise<Record<string, unknown>[]> {
  const list = await ctx.repos.announcements.listPublished(withDismissed ? {} : { notDismissedBy: accountId });
  return announcementsJson(ctx, list, accountId);
}
