/** A follow's (or a follow request's) options. */
export interface FollowStateView {
  showReblogs: boolean;
  notify: boolean;
  languages: readonly string[] | null;
}

/** A mute's options. */
export interface MuteStateView {
  hideNotifications: boolean;
  expiresAt: string | null;
}

/** What is known of the viewer's relation to one account (loaded by services/relationships). */
export interface RelationshipView {
  id: string;
  /** The viewer's follow of the account, if any. */
  following?: FollowStateView;
  followedBy: boolean;
  /** The viewer's pending follow request to the account, if any. */
  requested?: FollowStateView;
  /** Whether the account asked to follow the viewer. */
  requestedBy: boolean;
  blocking: boolean;
  blockedBy: boolean;
  /** The viewer's live mute of the account, if any. */
  muting?: MuteStateView;
  /** The account is on a domain the viewer blocks. */
  domainBlocking: boolean;
  /** The viewer features the account on its profile. */
  endorsed: boolean;
  /** The viewer's private note on the account ("" for none). */
  note: string;
}

/**
 * Mastodon's Relationship. `showing_reblogs`, `notifying` and `languages` are the follow's
 * options, or the pending request's.
 */
export function serializeRelationship(v: RelationshipView): Record<string, unknown> {
  return {
    id: v.id,
    following: v.following !== undefined,
    showing_reblogs: (v.following ?? v.requested)?.showReblogs ?? false,
    notifying: (v.following ?? v.requested)?.notify ?? false,
    languages: (v.following ?? v.requested)?.languages ?? null,
    followed_by: v.followedBy,
    blocking: v.blocking,
    blocked_by: v.blockedBy,
    muting: v.muting !== undefined,
    muting_notifications: v.muting?.hideNotifications ?? false,
    muting_expires_at: v.muting?.expiresAt ?? null,
    requested: v.requested !== undefined,
    requested_by: v.requestedBy,
    domain_blocking: v.domainBlocking,
    endorsed: v.endorsed,
    note: v.note,
  };
}
