import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import type { User } from "../../db/repositories/users.ts";
import { randomToken, sha256 } from "../../lib/crypto.ts";
import { isValidEmail } from "../../lib/email.ts";
import { ApiError } from "../../lib/errors.ts";
import { EMAIL_BLOCKED, EMAIL_TAKEN, emailVerdict } from "../moderation/sign-up-blocks.ts";
import { enqueueAdminSignUp } from "../notifications/admin-sign-up.ts";
import { FieldErrors } from "./field-errors.ts";

const logger = getLogger(["gannet", "accounts"]);
const OOB = "urn:ietf:wg:oauth:2.0:oob";

/** E-mail addresses are compared and stored trimmed and lower-cased (Devise's case-insensitive keys). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Where an app wants its users sent after confirming: its first redirect URI, unless out-of-band. */
export function appConfirmationRedirect(app: Application | undefined): string | undefined {
  const first = app?.redirectUris[0];
  return first && first !== OOB ? first : undefined;
}

export function confirmationUrl(ctx: AppContext, rawToken: string, app?: Application): string {
  const q = new URLSearchParams({ confirmation_token: rawToken });
  if (appConfirmationRedirect(app)) q.set("redirect_to_app", "true");
  return `${ctx.config.baseUrl}/auth/confirmation?${q}`;
}

/**
 * Mails the confirmation link: of a sign-up, or (`change`) of a new address for a confirmed
 * account (Mastodon's reconfirmation mail). The mail is sent in the background: the sign-up must
 * not wait for (or fail with) the mail server; failures are logged.
 */
export function sendConfirmationInstructions(
  ctx: AppContext,
  to: string,
  rawToken: string,
  app?: Application,
  change = false,
): void {
  const { siteTitle, localDomain } = ctx.config;
  const url = confirmationUrl(ctx, rawToken, app);
  const text = change
    ? [
        `Please confirm the new e-mail address of your account on ${localDomain}.`,
        "",
        `Open this link to confirm it: ${url}`,
        "",
        "The address changes once you confirm it. If you did not ask for this change, ignore this mail.",
      ]
    : [
        `Please confirm your e-mail address for your account on ${localDomain}.`,
        "",
        `Open this link to confirm it: ${url}`,
        "",
        "If you did not sign up, you can ignore this mail.",
      ];
  ctx.mailer
    .send({
      to,
      subject: change
        ? `${siteTitle}: Confirm your new e-mail address on ${localDomain}`
        : `${siteTitle}: Confirmation instructions for ${localDomain}`,
      text: text.join("\n"),
    })
    .catch((error: unknown) => logger.error("Could not send a confirmation mail to {to}: {error}", { to, error }));
}

export interface ConfirmedEmail {
  user: User;
  /** The app to send the user back to, when it has a redirect URI. */
  redirectUri?: string;
}

/** Whether an e-mail domain block (not one allowing with approval) or a canonical block covers `email`. */
async function addressBlocked(ctx: AppContext, email: string): Promise<boolean> {
  const verdict = await emailVerdict(ctx, email);
  return verdict.blocked || verdict.canonicalBlocked;
}

/**
 * Confirms the e-mail address whose link carried `rawToken`, moving a pending new address in place.
 * Answers undefined for an unknown or used link. The link works once.
 */
export async function confirmEmail(ctx: AppContext, rawToken: string): Promise<ConfirmedEmail | undefined> {
  if (rawToken === "" || rawToken.length > 200) return undefined;
  const user = await ctx.repos.users.getByConfirmationToken(sha256(rawToken));
  if (!user) return undefined;
  const now = new Date().toISOString();
  const newEmail = user.unconfirmedEmail;
  if (newEmail && ((await ctx.repos.users.emailTaken(newEmail, user.id)) || (await addressBlocked(ctx, newEmail)))) {
    // Someone confirmed this address first, or it was blocked since: the link can no longer be honoured.
    await ctx.repos.users.update(user.id, { confirmation_token: null, unconfirmed_email: null, updated_at: now });
    return undefined;
  }
  await ctx.repos.users.update(user.id, {
    confirmed_at: user.confirmedAt ?? now,
    confirmation_token: null,
    ...(newEmail ? { email: newEmail, unconfirmed_email: null } : {}),
    updated_at: now,
  });
  const confirmed = await ctx.repos.users.getById(user.id);
  if (!confirmed) return undefined;
  if (user.confirmedAt === null && confirmed.approved) await enqueueAdminSignUp(ctx, confirmed.accountId);
  const app = user.createdByApplicationId
    ? await ctx.repos.oauth.getApplicationById(user.createdByApplicationId)
    : undefined;
  return { user: confirmed, redirectUri: appConfirmationRedirect(app) };
}

/** Whether the user still has an address waiting for confirmation (a first one or a new one). */
export function awaitingConfirmation(user: User): boolean {
  return user.confirmedAt === null || user.unconfirmedEmail !== null;
}

/**
 * Sends a fresh confirmation link (Mastodon's `POST /api/v1/emails/confirmations`), optionally to
 * a new address, which replaces the current one once confirmed. Older links stop working.
 */
export async function resendConfirmation(ctx: AppContext, user: User, email?: string): Promise<void> {
  let pending = user.unconfirmedEmail;
  if (email !== undefined) {
    const next = normalizeEmail(email);
    if (next !== normalizeEmail(user.email)) {
      const errors = new FieldErrors();
      if (next === "") errors.add("email", "ERR_BLANK", "can't be blank");
      else if (!isValidEmail(next)) errors.add("email", "ERR_INVALID", "is invalid");
      else if (await ctx.repos.users.emailTaken(next, user.id)) errors.add("email", "ERR_TAKEN", "is already taken");
      else {
        // The e-mail blocks refuse a new address as they refuse a sign-up (approval aside).
        const verdict = await emailVerdict(ctx, next);
        if (verdict.blocked) errors.add("email", EMAIL_BLOCKED.error, EMAIL_BLOCKED.description);
        else if (verdict.canonicalBlocked) errors.add("email", EMAIL_TAKEN.error, EMAIL_TAKEN.description);
      }
      errors.throwIfAny();
      pending = next;
    } else {
      pending = null;
    }
  }
  if (pending === null && user.confirmedAt !== null) {
    throw new ApiError(403, "This method is only available while the e-mail is awaiting confirmation");
  }
  const rawToken = randomToken(24);
  await ctx.repos.users.update(user.id, {
    unconfirmed_email: pending,
    confirmation_token: sha256(rawToken),
    confirmation_sent_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  });
  const app = user.createdByApplicationId
    ? await ctx.repos.oauth.getApplicationById(user.createdByApplicationId)
    : undefined;
  sendConfirmationInstructions(
    ctx,
    pending ?? user.email,
    rawToken,
    app,
    pending !== null && user.confirmedAt !== null,
  );
}

/**
 * Mails a new confirmation link to the user with this address (confirmed or waiting to become
 * theirs) while one awaits confirmation; answers that user, if any, so the caller can tell a
 * signed-in owner apart (the visitor is told the same either way).
 */
export async function resendConfirmationTo(ctx: AppContext, email: string): Promise<User | undefined> {
  const user = (await ctx.repos.users.getByEmail(email)) ?? (await ctx.repos.users.getByUnconfirmedEmail(email));
  if (user && awaitingConfirmation(user)) await resendConfirmation(ctx, user);
  return user;
}
