import type { Status, Visibility } from "../db/repositories/statuses.ts";

/** What a viewer's relation to a status is, as far as visibility goes. */
export interface StatusRelation {
  /** The viewer's account id, if signed in. */
  viewerId?: string;
  /** The viewer follows the author. */
  followsAuthor: boolean;
  /** The status mentions the viewer. */
  mentioned: boolean;
}

/**
 * Mastodon's visibility rules: public and unlisted for everyone, private for the author, followers
 * and mentioned accounts, direct for the author and mentioned accounts. Deleted statuses are
 * handled by the caller (410 or skipped).
 */
export function canSeeStatus(status: Status, rel: StatusRelation): boolean {
  if (status.visibility === "public" || status.visibility === "unlisted") return true;
  if (rel.viewerId !== undefined && rel.viewerId === status.accountId) return true;
  if (rel.mentioned) return true;
  return status.visibility === "private" && rel.followsAuthor;
}

/** Only public and unlisted statuses can be boosted, except that authors may boost their own private posts. */
export function canReblog(status: Status, accountId: string): boolean {
  if (status.reblogOfId !== null) return false;
  if (status.visibility === "public" || status.visibility === "unlisted") return true;
  return status.visibility === "private" && status.accountId === accountId;
}

/** Own public, unlisted and private posts can be pinned; boosts and direct posts cannot. */
export function canPin(status: Status, accountId: string): boolean {
  return status.accountId === accountId && status.reblogOfId === null && status.visibility !== "direct";
}

export const VISIBILITIES: readonly Visibility[] = ["public", "unlisted", "private", "direct"];

/** The visibility of a boost (Mastodon): a private post's boost stays private; otherwise what was asked. */
export function reblogVisibility(asked: Visibility, original: Status): Visibility {
  return original.visibility === "private" || original.visibility === "direct" ? original.visibility : asked;
}
