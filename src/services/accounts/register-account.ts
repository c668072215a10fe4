import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import { isValidEmail } from "../../lib/email.ts";
import { ApiError } from "../../lib/errors.ts";
import { isLocale } from "../../lib/text/languages.ts";
import { codePointLength } from "../../lib/text/length.ts";
import { loadSiteInfo } from "../instance/site-settings.ts";
import { ipSignUpSeverity } from "../moderation/ip-blocks.ts";
import { EMAIL_BLOCKED, EMAIL_TAKEN, emailVerdict } from "../moderation/sign-up-blocks.ts";
import { enqueueAdminSignUp } from "../notifications/admin-sign-up.ts";
import { type IssuedToken, issueToken } from "../oauth/tokens.ts";
import { type CreatedLocalAccount, checkNewAccount, createLocalAccount } from "./create-local-account.ts";
import { normalizeEmail, sendConfirmationInstructions } from "./email-confirmation.ts";
import { FieldErrors } from "./field-errors.ts";

/** The sign-up reason (Mastodon's invite request text) limit. */
export const REASON_MAX = 420;

/** A sign-up, from the API or the web's sign-up form. */
export interface SignUpInput {
  ip: string | null;
  username?: string;
  email?: string;
  password?: string;
  /** The form's repeated password (the web form); must match when given. */
  passwordConfirmation?: string;
  agreement: boolean;
  locale?: string;
  reason?: string;
  /** `YYYY-MM-DD`; required when the server has a minimum age (Mastodon 4.4's `date_of_birth`). */
  dateOfBirth?: string;
}

export interface RegistrationInput extends SignUpInput {
  /** The OAuth application registering the account; the new token belongs to it. */
  applicationId: string;
}

export interface Registration {
  created: CreatedLocalAccount;
  token: IssuedToken;
}

/** Whether the server takes sign-ups through the API at all. */
export async function registrationsOpen(ctx: AppContext): Promise<boolean> {
  return (await loadSiteInfo(ctx)).registrationsMode !== "none";
}

/**
 * Every problem with a sign-up, in Mastodon's registration 422 format; stores nothing but the
 * attempt an e-mail domain block caught. Answers whether the e-mail blocks send it to approval.
 */
async function checkRegistration(ctx: AppContext, input: SignUpInput): Promise<{ requiresApproval: boolean }> {
  const errors = new FieldErrors();
  if (input.password === undefined || input.password === "") errors.add("password", "ERR_BLANK", "can't be blank");
  else if (input.passwordConfirmation !== undefined && input.passwordConfirmation !== input.password) {
    errors.add("password_confirmation", "ERR_INVALID", "doesn't match Password");
  }
  if (!input.agreement) errors.add("agreement", "ERR_ACCEPTED", "must be accepted");
  if (input.locale !== undefined && !isLocale(input.locale)) {
    errors.add("locale", "ERR_INCLUSION", "is not included in the list");
  }
  if (input.reason !== undefined && codePointLength(input.reason) > REASON_MAX) {
    errors.add("reason", "ERR_TOO_LONG", `is too long (maximum is ${REASON_MAX} characters)`);
  }
  const site = await loadSiteInfo(ctx);
  // Mastodon's `invite_text_required?`: the operator asks approval-mode sign-ups for a reason.
  if (site.requireInviteText && site.registrationsMode !== "open" && !input.reason?.trim()) {
    errors.add("reason", "ERR_BLANK", "can't be blank");
  }
  if (site.minAge !== null) {
    const problem = dateOfBirthProblem(input.dateOfBirth, site.minAge);
    if (problem) errors.add("date_of_birth", problem.error, problem.description);
  }
  try {
    await checkNewAccount(ctx, {
      username: input.username ?? "",
      email: normalizeEmail(input.email ?? ""),
      password: input.password || undefined,
      confirmed: false,
      approved: false,
    });
  } catch (e) {
    const details = e instanceof ApiError ? (e.extra?.details as FieldErrors["details"] | undefined) : undefined;
    if (!details) throw e;
    errors.merge(details);
  }
  // E-mail domain and canonical e-mail blocks (Mastodon's UserEmailValidator).
  const email = normalizeEmail(input.email ?? "");
  let requiresApproval = false;
  if (isValidEmail(email)) {
    const verdict = await emailVerdict(ctx, email, input.ip);
    if (verdict.blocked) errors.add("email", EMAIL_BLOCKED.error, EMAIL_BLOCKED.description);
    const taken = errors.details.email?.some((e) => e.error === EMAIL_TAKEN.error);
    if (verdict.canonicalBlocked && !taken) errors.add("email", EMAIL_TAKEN.error, EMAIL_TAKEN.description);
    requiresApproval = verdict.requiresApproval;
  }
  errors.throwIfAny();
  return { requiresApproval };
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** What is wrong with a date of birth given a minimum age (Mastodon's ERR_BELOW_LIMIT), if anything. */
function dateOfBirthProblem(value: string | undefined, minAge: number): { error: string; description: string } | null {
  if (value === undefined || value.trim() === "") return { error: "ERR_BLANK", description: "can't be blank" };
  const m = DATE_RE.exec(value.trim());
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const born = new Date(Date.UTC(y, mo - 1, d));
  if (!m || born.getUTCMonth() !== mo - 1 || born.getUTCDate() !== d || born.getTime() > Date.now()) {
    return { error: "ERR_INVALID", description: "is invalid" };
  }
  const now = new Date();
  const birthday = new Date(Date.UTC(now.getUTCFullYear() - minAge, now.getUTCMonth(), now.getUTCDate()));
  return born.getTime() > birthday.getTime()
    ? { error: "ERR_BELOW_LIMIT", description: "is below the age limit" }
    : null;
}

/**
 * Signs up a local user through an application (Mastodon's AppSignUpService): the user is
 * approved at once in `open` mode and waits for a moderator in `approved` mode; the e-mail must be
 * confirmed first unless the operator turned confirmation off. Answers a token for the app.
 */
export async function registerAccount(ctx: AppContext, input: RegistrationInput): Promise<Registration> {
  if (!(await registrationsOpen(ctx))) throw new ApiError(403, "This action is not allowed");
  const app = await ctx.repos.oauth.getApplicationById(input.applicationId);
  if (!app) throw new ApiError(401, "The access token is invalid");
  const created = await signUp(ctx, input, app);
  const token = await issueToken(ctx, { applicationId: app.id, userId: created.user.id, scopes: app.scopes });
  return { created, token };
}

/**
 * Signs up a local user, through an application (`app`, the API) or the web's sign-up form (no
 * app): registration mode, IP and e-mail blocks, the account rules; then the confirmation mail.
 * Throws 403 while sign-ups are closed (or the address is blocked from signing up), the
 * registration 422 for a bad form.
 */
export async function signUp(ctx: AppContext, input: SignUpInput, app?: Application): Promise<CreatedLocalAccount> {
  if (!(await registrationsOpen(ctx))) throw new ApiError(403, "This action is not allowed");
  // IP blocks: `sign_up_block` refuses as closed registrations do (Mastodon's RegistrationHelper);
  // `sign_up_requires_approval` sends the user to the approval queue, as do some e-mail blocks.
  const ipSeverity = await ipSignUpSeverity(ctx, input.ip);
  if (ipSeverity === "sign_up_block" || ipSeverity === "no_access")
    throw new ApiError(403, "This action is not allowed");
  const { requiresApproval } = await checkRegistration(ctx, input);
  const needsApproval = requiresApproval || ipSeverity === "sign_up_requires_approval";
  const account = {
    username: input.username as string,
    email: normalizeEmail(input.email as string),
    password: input.password,
    confirmed: !ctx.config.requireEmailConfirmation,
    approved: (await loadSiteInfo(ctx)).registrationsMode === "open" && !needsApproval,
    locale: input.locale ?? "en",
    reason: input.reason?.trim() || null,
    applicationId: app?.id ?? null,
    signUpIp: input.ip,
  };
  let created: CreatedLocalAccount;
  try {
    created = await createLocalAccount(ctx, account);
  } catch (e) {
    // Two sign-ups racing for one name: the unique index refused the second; answer like Mastodon.
    if (!(e instanceof ApiError)) await checkNewAccount(ctx, account);
    throw e;
  }
  // Staff hear of the account once it is usable (Mastodon); else at confirmation or approval.
  if (created.user.confirmedAt !== null && created.user.approved) await enqueueAdminSignUp(ctx, created.account.id);
  if (created.confirmationToken) sendConfirmationInstructions(ctx, created.user.email, created.confirmationToken, app);
  return created;
}
