import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { User } from "../../db/repositories/users.ts";
import { randomToken, sha256 } from "../../lib/crypto.ts";
import { isValidEmail } from "../../lib/email.ts";
import { accessTokenChannel, publishAll } from "../streaming/channels.ts";
import { normalizeEmail } from "./email-confirmation.ts";
import { FieldErrors } from "./field-errors.ts";
import { checkNewPassword, sendPasswordChangedNotice, storePassword } from "./password-change.ts";

const logger = getLogger(["gannet", "accounts"]);

/** How long a reset link works (Devise's `reset_password_within`, which Mastodon sets to 6 hours). */
export const RESET_PASSWORD_WITHIN_MS = 6 * 60 * 60 * 1000;

export function resetPasswordUrl(ctx: AppContext, rawToken: string): string {
  return `${ctx.config.baseUrl}/auth/password/edit?${new URLSearchParams({ reset_password_token: rawToken })}`;
}

/**
 * Mails a password reset link to the user with this address, if there is one; the caller answers
 * the same either way (Devise's paranoid mode), so the form tells nobody who has an account.
 * A new link replaces an older one.
 */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const address = normalizeEmail(email);
  if (!isValidEmail(address)) return;
  const user = await ctx.repos.users.getByEmail(address);
  if (!user) return;
  const rawToken = randomToken(24);
  const now = new Date().toISOString();
  await ctx.repos.users.update(user.id, { reset_password_token: sha256(rawToken), reset_password_sent_at: now });
  const { siteTitle, localDomain } = ctx.config;
  ctx.mailer
    .send({
      to: user.email,
      subject: `${siteTitle}: Reset password instructions`,
      text: [
        `Someone asked to change the password of your account on ${localDomain}.`,
        "",
        `Open this link to choose a new password: ${resetPasswordUrl(ctx, rawToken)}`,
        "",
        "The link works once, for 6 hours. If you did not ask for this, ignore this mail: your password stays as it is.",
      ].join("\n"),
    })
    .catch((error: unknown) => logger.error("Could not send a reset mail to {to}: {error}", { to: user.email, error }));
}

/** The user a reset link names while it works (known, unused, sent less than 6 hours ago). */
export async function userForResetToken(ctx: AppContext, rawToken: string): Promise<User | undefined> {
  if (rawToken === "" || rawToken.length > 200) return undefined;
  const found = await ctx.repos.users.getByResetPasswordToken(sha256(rawToken));
  if (!found?.sentAt) return undefined;
  if (Date.parse(found.sentAt) + RESET_PASSWORD_WITHIN_MS < Date.now()) return undefined;
  return found.user;
}

/**
 * Mastodon's `revoke_access!` after a password reset: every OAuth token of the user is revoked
 * (their push subscriptions stop with them) and their streaming connections close.
 */
export async function revokeAccess(ctx: AppContext, user: User): Promise<void> {
  const ids = await ctx.repos.accountModeration.liveTokenIds(user.id);
  await ctx.repos.oauth.revokeTokensOfUser(user.id, new Date().toISOString());
  await publishAll(
    ctx,
    ids.map((id) => accessTokenChannel(id)),
    "kill",
    null,
  );
}

/**
 * Sets a new password through a reset link. Answers undefined when the link does not work
 * (unknown, used or expired); throws the registration-style 422 for a bad password. On success
 * the link is spent, every browser session ends (their cookies hold the old hash's fingerprint)
 * and, as in Mastodon, every application loses its access.
 */
export async function resetPassword(
  ctx: AppContext,
  rawToken: string,
  input: { password: string; confirmation: string },
): Promise<User | undefined> {
  const user = await userForResetToken(ctx, rawToken);
  if (!user) return undefined;
  const errors = new FieldErrors();
  checkNewPassword(errors, input.password, input.confirmation);
  errors.throwIfAny();
  // Two submissions of one link: only the first sets a password.
  if (!(await ctx.repos.users.spendResetPasswordToken(user.id, sha256(rawToken)))) return undefined;
  const updated = await storePassword(ctx, user, input.password);
  await revokeAccess(ctx, updated);
  sendPasswordChangedNotice(ctx, updated);
  return updated;
}
