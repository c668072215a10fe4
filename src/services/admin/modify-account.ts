import type { AppContext } from "../../context.ts";
import { EVERYONE_ROLE_ID } from "../../db/repositories/roles.ts";
import type { UserUpdate } from "../../db/repositories/users.ts";
import { randomToken } from "../../lib/crypto.ts";
import { isValidEmail } from "../../lib/email.ts";
import { ApiError } from "../../lib/errors.ts";
import { passwords } from "../../lib/passwords.ts";
import { enqueueAdminSignUp } from "../notifications/admin-sign-up.ts";
import type { LocalUser } from "./local-user.ts";

/** What an administrator may change on a local user; absent fields stay as they are. */
export interface AccountChanges {
  /** A role name; `null` puts the user back in the everyone role. */
  role?: string | null;
  email?: string;
  /** Marks the e-mail address confirmed (there is no "unconfirm"). */
  confirm?: boolean;
  /** Approves a pending sign-up. */
  approve?: boolean;
  /** `true` disables the login, `false` enables it again. Tokens are kept, as in Mastodon. */
  disabled?: boolean;
  /** Replaces the password with a random one, returned once. */
  resetPassword?: boolean;
}

export interface ModifiedAccount extends LocalUser {
  /** The new password, when `resetPassword` was asked for. */
  password?: string;
}

/** Applies administrator changes to a local user in one update; a bad role or e-mail is a 422. */
export async function modifyAccount(
  ctx: AppContext,
  target: LocalUser,
  changes: AccountChanges,
): Promise<ModifiedAccount> {
  const now = new Date().toISOString();
  const patch: UserUpdate = {};
  if (changes.role !== undefined) {
    if (changes.role === null) patch.role_id = EVERYONE_ROLE_ID;
    else {
      const role = await ctx.repos.roles.getByName(changes.role);
      if (!role) throw new ApiError(422, `Validation failed: Role ${changes.role} does not exist`);
      patch.role_id = role.id;
    }
  }
  if (changes.email !== undefined && changes.email.toLowerCase() !== target.user.email.toLowerCase()) {
    if (!isValidEmail(changes.email)) throw new ApiError(422, "Validation failed: Email is invalid");
    const other = await ctx.repos.users.getByEmail(changes.email);
    if (other && other.id !== target.user.id) throw new ApiError(422, "Validation failed: Email is already taken");
    // The operator vouches for the new address; a pending change of address is dropped.
    patch.email = changes.email;
    patch.unconfirmed_email = null;
  }
  if (changes.confirm && target.user.confirmedAt === null) {
    patch.confirmed_at = now;
    patch.confirmation_token = null;
  }
  if (changes.approve) patch.approved = true;
  if (changes.disabled !== undefined) patch.disabled = changes.disabled;
  let password: string | undefined;
  if (changes.resetPassword) {
    password = randomToken(18);
    patch.encrypted_password = await passwords.hash(password);
  }
  if (Object.keys(patch).length > 0) {
    patch.updated_at = now;
    await ctx.repos.users.update(target.user.id, patch);
  }
  const user = await ctx.repos.users.getById(target.user.id);
  if (!user) throw new ApiError(404, "Record not found");
  const wasActive = target.user.confirmedAt !== null && target.user.approved;
  if (!wasActive && user.confirmedAt !== null && user.approved) await enqueueAdminSignUp(ctx, user.accountId);
  return { account: target.account, user, password };
}
