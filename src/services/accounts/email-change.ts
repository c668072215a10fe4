import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { User } from "../../db/repositories/users.ts";
import { normalizeEmail, resendConfirmation } from "./email-confirmation.ts";
import { FieldErrors } from "./field-errors.ts";
import { isCurrentPassword } from "./password-change.ts";

const logger = getLogger(["gannet", "accounts"]);

export type EmailChangeOutcome = "sent" | "cancelled" | "unchanged";

/**
 * Asks to change a signed-in user's e-mail address (the account page): the current password
 * must be right; the new address follows the sign-up's rules (valid, not taken, not blocked by
 * the e-mail domain or canonical e-mail blocks). It is kept as `unconfirmed_email` and takes the
 * place of the current one when the link mailed to it is opened; the current address is told.
 * Giving the current address again cancels a pending change. Throws the registration-style 422
 * naming `current_password` or `email`.
 */
export async function requestEmailChange(
  ctx: AppContext,
  user: User,
  input: { currentPassword: string; email: string },
): Promise<EmailChangeOutcome> {
  if (!(await isCurrentPassword(user, input.currentPassword))) {
    const errors = new FieldErrors();
    errors.add("current_password", "ERR_INVALID", "is invalid");
    errors.throwIfAny();
  }
  const next = normalizeEmail(input.email);
  if (next === normalizeEmail(user.email) && user.confirmedAt !== null) {
    if (user.unconfirmedEmail === null) return "unchanged";
    await ctx.repos.users.update(user.id, {
      unconfirmed_email: null,
      confirmation_token: null,
      updated_at: new Date().toISOString(),
    });
    return "cancelled";
  }
  // Validation, the pending address, the token and the mail to the new address.
  await resendConfirmation(ctx, user, input.email);
  if (next !== normalizeEmail(user.email)) sendEmailChangeNotice(ctx, user, next);
  return "sent";
}

/** Tells the current address that a change to `next` was asked for (Mastodon's `email_changed` mail). */
function sendEmailChangeNotice(ctx: AppContext, user: User, next: string): void {
  const { siteTitle, localDomain, baseUrl } = ctx.config;
  ctx.mailer
    .send({
      to: user.email,
      subject: `${siteTitle}: E-mail change requested`,
      text: [
        `Someone asked to change the e-mail address of your account on ${localDomain} to ${next}.`,
        "It changes once the new address is confirmed.",
        "",
        `If this was not you, change your password at once: ${baseUrl}/auth/password/new`,
        "and contact the server's staff.",
      ].join("\n"),
    })
    .catch((error: unknown) => logger.error("Could not send a notice to {to}: {error}", { to: user.email, error }));
}
