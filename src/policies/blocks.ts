import type { BlockMuteRelations } from "../db/repositories/relationships.ts";

/**
 * Which statuses a viewer is shown, by blocks and mutes (Mastodon's StatusPolicy and StatusFilter):
 * `"all"` keeps statuses by accounts the viewer blocks or mutes (a status asked for by id,
 * favourites, bookmarks); an account id keeps that account's own statuses (its profile); absent,
 * they are left out (timelines, threads, notifications).
 */
export type KeepBlockedAndMuted = "all" | string | undefined;

/**
 * Whether a status by `authorId` is hidden from the viewer: always when the author blocks the
 * viewer (Mastodon answers 404), and when the viewer blocks or mutes the author, or blocks the
 * author's domain without following the author, unless `keep` says otherwise. The viewer's own
 * statuses are never hidden.
 */
export function hiddenByBlocks(
  authorId: string,
  viewerId: string | undefined,
  rel: BlockMuteRelations,
  keep: KeepBlockedAndMuted,
): boolean {
  if (viewerId === undefined || authorId === viewerId) return false;
  if (rel.blockedBy.has(authorId)) return true;
  if (keep === "all" || keep === authorId) return false;
  return rel.blocking.has(authorId) || rel.muting.has(authorId) || rel.domainHidden.has(authorId);
}

/**
 * Whether the recipient is spared notifications from `fromId`: blocked, muted with its
 * notifications, or on a blocked domain and not followed (Mastodon's NotifyService).
 */
export function notificationsBlocked(fromId: string, rel: BlockMuteRelations): boolean {
  return (
    rel.blocking.has(fromId) ||
    rel.blockedBy.has(fromId) ||
    rel.muting.get(fromId)?.hideNotifications === true ||
    rel.domainHidden.has(fromId)
  );
}

/** Whether the account is hidden from the viewer in lists of people: blocked either way, muted, or domain-hidden. */
export function hiddenPerson(id: string, rel: BlockMuteRelations): boolean {
  return rel.blocking.has(id) || rel.blockedBy.has(id) || rel.muting.has(id) || rel.domainHidden.has(id);
}
