import type { Account } from "../db/repositories/accounts.ts";
import { isAccountDeleted } from "./accounts.ts";

/**
 * What the moderation flags on an account do to what others read (docs/moderation.md, "What
 * suspension, silence and sensitive do"). The SQL twins live with the queries that need them
 * (repositories/accounts.ts `searchableAccountCondition`, status-pages.ts `broadcastAuthorCondition`).
 */

type Flags = Pick<Account, "suspendedAt" | "suspensionOrigin" | "silencedAt" | "sensitizedAt">;

/**
 * Suspended, by a moderator (`local`) or by its own server (`remote`): shown emptied
 * (serializers/account.ts), its posts and notifications hidden, out of search and of lists of
 * people. A deleted account (also `suspended_at`, origin `deleted`) is answered 410 instead.
 */
export function isSuspended(account: Flags): boolean {
  return account.suspendedAt !== null && !isAccountDeleted(account);
}

/** Suspended or deleted: nothing it wrote is shown (its statuses, its notifications). */
export function isUnavailable(account: Pick<Account, "suspendedAt">): boolean {
  return account.suspendedAt !== null;
}

/**
 * Silenced (Mastodon's "limited"): its posts stay off the public, local, remote and hashtag
 * timelines and streams, trends, the directory and suggestions; its notifications to those who
 * do not follow it are filtered (the `for_limited_accounts` policy category); its Account
 * carries `limited: true`.
 */
export function isSilenced(account: Pick<Account, "silencedAt">): boolean {
  return account.silencedAt !== null;
}

/** Sensitized: every post of the account is shown and federated as sensitive (`sensitiveShown`). */
export function isSensitized(account: Pick<Account, "sensitizedAt">): boolean {
  return account.sensitizedAt !== null;
}

/**
 * The `sensitive` a post is shown and federated with: its own, or true when its author is
 * sensitized (Mastodon's StatusSerializer and NoteSerializer: `account.sensitized? || sensitive`).
 * Unlike Mastodon, the author sees it so too (one rendering for every viewer: the kept JSON of
 * the timelines is shared).
 */
export function sensitiveShown(sensitive: boolean, author: Pick<Account, "sensitizedAt"> | undefined): boolean {
  return sensitive || (author !== undefined && isSensitized(author));
}
