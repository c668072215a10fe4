import type { AppContext } from "../../context.ts";
import { EVERYONE_ROLE_ID } from "../../db/repositories/roles.ts";
import type { UserUpdate } from "../../db/repositories/users.ts";
import { randomToken } from "../../lib/crypto.ts";
import { isValidEmail } from "../../lib/email.ts";
import { ApiError } from "../../lib/errors.ts";
import { passwords } from "../../lib/passwords.ts";
import { type ActionRecord, COMMAND_LINE, logAction, type Moderator } from "../moderation/action-log.ts";
import { enqueueAdminSignUp } from "../notifications/admin-sign-up.ts";
import { disableSecondFactor, secondFactorEnabled } from "../security/totp.ts";
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
  /** Turns two-factor sign-in off (app, recovery codes, security keys), as tootctl's `--disable-2fa`. */
  disableTwoFactor?: boolean;
  /** The user's own choice of the trends review e-mail (Mastodon's `notification_emails.trends`); not logged. */
  trendsEmails?: boolean;
}

export interface ModifiedAccount extends LocalUser {
  /** The new password, when `resetPassword` was asked for. */
  password?: string;
}

/**
 * Applies administrator changes to a local user in one update; a bad role or e-mail is a 422.
 * Each change is written to the action log (Mastodon's `change_role`, `change_email`, `confirm`,
 * `approve`, `disable`, `enable`, `reset_password` on the `User`) in the same transaction.
 */
export async function modifyAccount(
  ctx: AppContext,
  target: LocalUser,
  changes: AccountChanges,
  by: Moderator = COMMAND_LINE,
): Promise<ModifiedAccount> {
  const now = new Date().toISOString();
  const patch: UserUpdate = {};
  const name = `@${target.account.username}`;
  const logged: ActionRecord[] = [];
  const log = (action: string, summary: string) =>
    logged.push({ action, targetType: "User", targetId: target.user.id, humanIdentifier: name, summary });
  if (changes.role !== undefined) {
    if (changes.role === null) {
      patch.role_id = EVERYONE_ROLE_ID;
      log("change_role", `removed the role of ${name}`);
    } else {
      const role = await ctx.repos.roles.getByName(changes.role);
      if (!role) throw new ApiError(422, `Validation failed: Role ${changes.role} does not exist`);
      patch.role_id = role.id;
      log("change_role", `gave ${name} the role ${role.name}`);
    }
    if (patch.role_id === target.user.roleId) {
      delete patch.role_id;
      logged.pop();
    }
  }
  if (changes.email !== undefined && changes.email.toLowerCase() !== target.user.email.toLowerCase()) {
    if (!isValidEmail(changes.email)) throw new ApiError(422, "Validation failed: Email is invalid");
    const other = await ctx.repos.users.getByEmail(changes.email);
    if (other && other.id !== target.user.id) throw new ApiError(422, "Validation failed: Email is already taken");
    // The operator vouches for the new address; a pending change of address is dropped.
    patch.email = changes.email;
    patch.unconfirmed_email = null;
    log("change_email", `changed the e-mail address of ${name}`);
  }
  if (changes.confirm && target.user.confirmedAt === null) {
    patch.confirmed_at = now;
    patch.confirmation_token = null;
    log("confirm", `confirmed the e-mail address of ${name}`);
  }
  if (changes.approve && !target.user.approved) {
    patch.approved = true;
    log("approve", `approved the sign-up of ${name}`);
  }
  if (changes.disabled !== undefined && changes.disabled !== target.user.disabled) {
    patch.disabled = changes.disabled;
    log(changes.disabled ? "disable" : "enable", `${changes.disabled ? "disabled" : "enabled"} the login of ${name}`);
  }
  let password: string | undefined;
  if (changes.resetPassword) {
    password = randomToken(18);
    patch.encrypted_password = await passwords.hash(password, ctx.config.passwordHash);
    log("reset_password", `reset the password of ${name}`);
  }
  if (changes.trendsEmails !== undefined) {
    const emails = { ...target.user.settings.notificationEmails, trends: changes.trendsEmails };
    patch.settings = JSON.stringify({ ...target.user.settings, notificationEmails: emails });
  }
  if (changes.disableTwoFactor && (await secondFactorEnabled(ctx, target.user.id))) {
    await disableSecondFactor(ctx, target.user.id);
    log("disable_2fa_user", `turned off two-factor authentication of ${name}`);
  }
  if (Object.keys(patch).length > 0 || logged.length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      if (Object.keys(patch).length > 0) {
        patch.updated_at = now;
        await ctx.repos.users.update(target.user.id, patch, trx);
      }
      for (const record of logged) await logAction(ctx, by, record, trx);
    });
  }
  const user = await ctx.repos.users.getById(target.user.id);
  if (!user) throw new ApiError(404, "Record not found");
  const wasActive = target.user.confirmedAt !== null && target.user.approved;
  if (!wasActive && user.confirmedAt !== null && user.approved) await enqueueAdminSignUp(ctx, user.accountId);
  return { account: target.account, user, password };
}
