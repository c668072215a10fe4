import { sql } from "kysely";
import { domainHiddenCondition } from "./relationships.ts";

/** Who reads a list: the account (if any) whose follows and mentions open private and direct posts. */
export interface Reader {
  accountId?: string;
}

/**
 * SQL twin of `canSeeStatus` (policies/statuses.ts) and of the author side of `hiddenByBlocks`
 * (policies/blocks.ts) on `statuses`: public and unlisted posts for everyone; the reader's own
 * posts; private posts for followers; private and direct posts for the accounts they mention;
 * nothing by an author who blocks the reader. (The reader's own blocks and mutes are left to
 * `filterVisible`, which knows the surface.)
 */
export function visibleCondition(reader: Reader) {
  const viewer = reader.accountId;
  if (viewer === undefined) return sql<boolean>`statuses.visibility IN ('public', 'unlisted')`;
  return sql<boolean>`((statuses.visibility IN ('public', 'unlisted') OR statuses.account_id = ${viewer}
    OR (statuses.visibility = 'private' AND EXISTS (SELECT 1 FROM follows WHERE follows.account_id = ${viewer}
      AND follows.target_account_id = statuses.account_id))
    OR EXISTS (SELECT 1 FROM mentions WHERE mentions.status_id = statuses.id AND mentions.account_id = ${viewer}))
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocks.account_id = statuses.account_id
      AND blocks.target_account_id = ${viewer}))`;
}

/**
 * SQL twin of the viewer side of `hiddenByBlocks` (policies/blocks.ts) on `statuses`, for lists
 * without boosts (public and hashtag timelines): not by an account the reader blocks, is blocked
 * by, or mutes (mutes that expired by `now` do not count), nor by an account of a domain the reader
 * blocks and does not follow. The reader's own posts always pass.
 */
export function notBlockedOrMutedCondition(reader: Reader, now: string) {
  const viewer = reader.accountId;
  if (viewer === undefined) return sql<boolean>`1 = 1`;
  return sql<boolean>`(statuses.account_id = ${viewer} OR (
    NOT EXISTS (SELECT 1 FROM blocks WHERE blocks.account_id = ${viewer} AND blocks.target_account_id = statuses.account_id)
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocks.account_id = statuses.account_id AND blocks.target_account_id = ${viewer})
    AND NOT EXISTS (SELECT 1 FROM mutes WHERE mutes.account_id = ${viewer} AND mutes.target_account_id = statuses.account_id
      AND (mutes.expires_at IS NULL OR mutes.expires_at > ${now}))
    AND NOT ${domainHiddenCondition(viewer, sql.ref("statuses.account_id"))}))`;
}

/** Statuses with at least one media attachment (`only_media`). */
export const hasMediaCondition = sql<boolean>`EXISTS (SELECT 1 FROM media_attachments WHERE media_attachments.status_id = statuses.id)`;

/**
 * SQL twin of `isUnavailable` and `isSilenced` (policies/moderation.ts) on the author of
 * `statuses`, for the public and hashtag timelines (Mastodon's PublicFeed: `Account
 * .without_suspended.without_silenced`): by an account neither suspended nor silenced.
 */
export const broadcastAuthorCondition = sql<boolean>`EXISTS (SELECT 1 FROM accounts pa WHERE pa.id = statuses.account_id
  AND pa.suspended_at IS NULL AND pa.silenced_at IS NULL)`;
