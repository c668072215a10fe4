import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { User } from "../../db/repositories/users.ts";
import { passwords } from "../../lib/passwords.ts";
import { SIGN_IN_PASSWORD_MAX } from "../oauth/sign-in.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "./create-local-account.ts";
import { FieldErrors } from "./field-errors.ts";

const logger = getLogger(["gannet", "accounts"]);

/** Adds the problems of a new password and its repetition (the registration's rules, 8 to 72 characters). */
export function checkNewPassword(errors: FieldErrors, password: string, confirmation: string): void {
  if (password === "") errors.add("password", "ERR_BLANK", "can't be blank");
  else if (password.length < PASSWORD_MIN)
    errors.add("password", "ERR_TOO_SHORT", `is too short (minimum is ${PASSWORD_MIN} characters)`);
  else if (password.length > PASSWORD_MAX)
    errors.add("password", "ERR_TOO_LONG", `is too long (maximum is ${PASSWORD_MAX} characters)`);
  else if (confirmation !== password) errors.add("password_confirmation", "ERR_INVALID", "doesn't match Password");
}

/** Whether `password` is the user's current password (over-long inputs are refused unhashed). */
export function isCurrentPassword(user: User, password: string): Promise<boolean> {
  if (password === "" || password.length > SIGN_IN_PASSWORD_MAX) return Promise.resolve(false);
  return passwords.verify(user.encryptedPassword, password);
}

/** Stores a new password hash; a pending password reset link stops working. */
export async function storePassword(ctx: AppContext, user: User, password: string): Promise<User> {
  const now = new Date().toISOString();
  await ctx.repos.users.update(user.id, {
    encrypted_password: await passwords.hash(password, ctx.config.passwordHash),
    reset_password_token: null,
    reset_password_sent_at: null,
    updated_at: now,
  });
  const updated = await ctx.repos.users.getById(user.id);
  if (!updated) throw new Error("user vanished while changing its password");
  return updated;
}

/** Tells the user their password changed (Devise's password change notification, which Mastodon sends). */
export function sendPasswordChangedNotice(ctx: AppContext, user: User): void {
  const { siteTitle, localDomain, baseUrl } = ctx.config;
  ctx.mailer
    .send({
      to: user.email,
      subject: `${siteTitle}: Password changed`,
      text: [
        `The password of your account on ${localDomain} has been changed.`,
        "",
        `If you did not change it, reset it at once: ${baseUrl}/auth/password/new`,
        "and contact the server's staff.",
      ].join("\n"),
    })
    .catch((error: unknown) =>
      logger.error("Could not send a password notice to {to}: {error}", { to: user.email, error }),
    );
}

/**
 * Changes a signed-in user's password (the account page): the current password must be right,
 * the new one follow the registration's rules. Throws the registration-style 422 naming
 * `current_password`, `password` or `password_confirmation`. Every browser session signed in
 * before ends (their cookie holds the old hash's fingerprint); OAuth tokens stay, as in Mastodon.
 */
export async function changePassword(
  ctx: AppContext,
  user: User,
  input: { currentPassword: string; password: string; confirmation: string },
): Promise<User> {
  const errors = new FieldErrors();
  if (!(await isCurrentPassword(user, input.currentPassword))) {
    errors.add("current_password", "ERR_INVALID", "is invalid");
  }
  checkNewPassword(errors, input.password, input.confirmation);
  errors.throwIfAny();
  const updated = await storePassword(ctx, user, input.password);
  sendPasswordChangedNotice(ctx, updated);
  return updated;
}
