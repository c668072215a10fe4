import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User } from "../../db/repositories/users.ts";
import { deleteLocalAccount } from "../admin/delete-local-account.ts";
import { queuePurge } from "../moderation/suspension.ts";
import { isCurrentPassword } from "./password-change.ts";

/**
 * A user deletes their own account (Mastodon's Settings::DeletesController), after giving their
 * password. As Mastodon's self-deletion: the user goes (sessions, tokens and e-mail address with
 * it, so the address may sign up again), the account row stays, emptied and marked deleted, so its
 * name is never handed out again; a `Delete` of the actor goes to the servers known here, and the
 * posts are removed in the background. Answers false (and does nothing) for a wrong password.
 */
export async function deleteOwnAccount(
  ctx: AppContext,
  target: { user: User; account: Account },
  password: string,
): Promise<boolean> {
  if (!(await isCurrentPassword(target.user, password))) return false;
  // Self-deletion is no moderation decision: nothing goes to the action log.
  await deleteLocalAccount(ctx, target, null);
  await queuePurge(ctx, target.account.id);
  return true;
}
