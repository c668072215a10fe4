import type { Account } from "../db/repositories/accounts.ts";
import type { User } from "../db/repositories/users.ts";

/**
 * Whether a local account is usable by the public: its e-mail is confirmed and it is approved.
 * Unconfirmed and unapproved accounts are invisible to the REST API (404), to search and to
 * mentions; only `accounts/lookup` still finds them. Remote accounts have no user.
 */
export function isAccountPublic(account: Account, user: User | undefined): boolean {
  if (account.domain !== null) return true;
  if (!user) return false;
  return user.confirmedAt !== null && user.approved;
}

/** Whether the user may use the API with a user token (Mastodon's `require_functional!`). */
export function userLoginProblem(user: User, account: Account): "disabled" | "unconfirmed" | "pending" | null {
  if (user.disabled || account.suspendedAt !== null) return "disabled";
  if (user.confirmedAt === null) return "unconfirmed";
  if (!user.approved) return "pending";
  return null;
}

/** A deleted account keeps its row (so its username stays taken) and is answered with 410. */
export function isAccountDeleted(account: Pick<Account, "suspensionOrigin">): boolean {
  return account.suspensionOrigin === "deleted";
}

/** The visibility a user's posts get by default: their setting, else followers-only for a locked account. */
export function defaultPrivacy(
  account: Pick<Account, "locked">,
  user: { settings: Pick<User["settings"], "privacy"> },
): "public" | "unlisted" | "private" | "direct" {
  return user.settings.privacy ?? (account.locked ? "private" : "public");
}
