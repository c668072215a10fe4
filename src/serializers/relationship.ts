import type { FollowState, MuteState } from "../db/repositories/relationships.ts";

/** What is known of the viewer's relation to one account (loaded by services/relationships). */
export interface RelationshipView {
  id: string;
  /** The viewer's follow of the account, if any. */
  following?: FollowState;
  followedBy: boolean;
  blocking: boolean;
  blockedBy: boolean;
  /** The viewer's live mute of the account, if any. */
  muting?: MuteState;
  /** The viewer features the account on its profile. */
  endorsed: boolean;
  /** The viewer's private note on the account ("" for none). */
  note: string;
}

/**
 * Mastodon's Relationship. Follow requests and domain blocks do not exist here yet, so
 * `requested`, `requested_by` and `domain_blocking` are false.
 */
export function serializeRelationship(v: RelationshipView): Record<string, unknown> {
  return {
    id: v.id,
    following: v.following !== undefined,
    showing_reblogs: v.following?.showReblogs ?? false,
    notifying: v.following?.notify ?? false,
    languages: v.following?.languages ?? null,
    followed_by: v.followedBy,
    blocking: v.blocking,
    blocked_by: v.blockedBy,
    muting: v.muting !== undefined,
    muting_notifications: v.muting?.hideNotifications ?? false,
    muting_expires_at: v.muting?.expiresAt ?? null,
    requested: false,
    requested_by: false,
    domain_blocking: false,
    endorsed: v.endorsed,
    note: v.note,
  };
}
