import type { Context } from "hono";
import { isValidEmail } from "../../../lib/email.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../../services/accounts/create-local-account.ts";
import { normalizeEmail } from "../../../services/accounts/email-confirmation.ts";
import { requestPasswordReset, resetPassword, userForResetToken } from "../../../services/accounts/password-reset.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { csrfToken, endSession, ensureSession, loadSession } from "../session.ts";
import {
  csrfField,
  emailForm,
  type FormErrors,
  formErrorsOf,
  inputField,
  limitExceeded,
  messagePage,
} from "./forms.ts";

const FIVE_MIN = 5 * 60 * 1000;
const THIRTY_MIN = 30 * 60 * 1000;

function requestForm(c: Context<HonoEnv>, csrf: string, email = "", error?: string): SafeHtml {
  return emailForm(c, "/auth/password", t(c)("auth.password.send"), csrf, email, error);
}

function requestPage(
  c: Context<HonoEnv>,
  csrf: string,
  opts: { email?: string; error?: string; status?: number } = {},
) {
  const tr = t(c);
  const body = html`<h1>${tr("auth.password.new_title")}</h1>
<p>${tr("auth.password.new_text")}</p>
${requestForm(c, csrf, opts.email, opts.error)}
<p class="muted"><a href="/auth/sign_in">${tr("common.sign_in")}</a> · <a href="/auth/confirmation/new">${tr("auth.confirmation.new_link")}</a></p>`;
  return sendPage(c, { title: tr("auth.password.new_title"), body, status: opts.status, noindex: true });
}

/** The page for a reset link that does not work (unknown, used or expired), with the request form. */
function invalidLinkPage(c: Context<HonoEnv>, csrf: string): Response {
  const tr = t(c);
  return messagePage(c, {
    title: tr("auth.password.invalid_title"),
    text: tr("auth.password.invalid_text"),
    error: true,
    status: 404,
    extra: html`<h2>${tr("auth.password.new_title")}</h2>${requestForm(c, csrf)}`,
  });
}

function editPage(
  c: Context<HonoEnv>,
  csrf: string,
  token: string,
  errors: FormErrors = {},
  status?: number,
): Response {
  const tr = t(c);
  const body = html`<h1>${tr("auth.password.edit_title")}</h1>
<form method="post" action="/auth/password/edit" novalidate>
${csrfField(csrf)}
<input type="hidden" name="reset_password_token" value="${token}">
${inputField({ name: "password", type: "password", label: tr("auth.field.new_password"), error: errors.password, hint: tr("auth.password_hint", { min: PASSWORD_MIN, max: PASSWORD_MAX }), autocomplete: "new-password", required: true })}
${inputField({ name: "password_confirmation", type: "password", label: tr("auth.field.password_confirmation"), error: errors.password_confirmation, autocomplete: "new-password", required: true })}
<button type="submit">${tr("auth.password.edit_submit")}</button>
</form>`;
  return sendPage(c, { title: tr("auth.password.edit_title"), body, status, noindex: true });
}

/** `GET /auth/password/new`: asks for the address to send a reset link to. */
export async function showPasswordRequest(c: Context<HonoEnv>): Promise<Response> {
  const session = await ensureSession(c);
  return requestPage(c, csrfToken(c, session));
}

/**
 * `POST /auth/password`: mails a reset link when an account has this address; the answer is the
 * same either way. Limited per client address and per e-mail address (Mastodon's throttles).
 */
export async function submitPasswordRequest(c: Context<HonoEnv>): Promise<Response> {
  const tr = t(c);
  const limited = await limitExceeded(c, "password_resets", 25, FIVE_MIN);
  if (limited) return limited;
  const session = await loadSession(c);
  const params = await readForm(c, session);
  if (params instanceof Response) return params;
  const email = normalizeEmail(field(params, "email", 320));
  if (!isValidEmail(email)) {
    return requestPage(c, csrfToken(c, session!), { email, error: tr("auth.error.email.ERR_INVALID"), status: 422 });
  }
  const byEmail = await limitExceeded(c, "password_resets", 5, THIRTY_MIN, `email:${email}`);
  if (byEmail) return byEmail;
  await requestPasswordReset(c.env.ctx, email);
  return messagePage(c, { title: tr("auth.password.sent_title"), text: tr("auth.password.sent_text") });
}

/** `GET /auth/password/edit?reset_password_token=`: the new password form, while the link works. */
export async function showPasswordEdit(c: Context<HonoEnv>): Promise<Response> {
  const session = await ensureSession(c);
  const csrf = csrfToken(c, session);
  const token = c.req.query("reset_password_token") ?? "";
  if (!(await userForResetToken(c.env.ctx, token))) return invalidLinkPage(c, csrf);
  return editPage(c, csrf, token);
}

/**
 * `POST /auth/password/edit`: sets the new password. Every session and application access of the
 * account ends (this browser's session too); the person signs in again with the new password.
 */
export async function submitPasswordEdit(c: Context<HonoEnv>): Promise<Response> {
  const tr = t(c);
  const limited = await limitExceeded(c, "password_resets", 25, FIVE_MIN);
  if (limited) return limited;
  const session = await loadSession(c);
  const params = await readForm(c, session);
  if (params instanceof Response) return params;
  const csrf = csrfToken(c, session!);
  const token = field(params, "reset_password_token", 300);
  let done: Awaited<ReturnType<typeof resetPassword>>;
  try {
    done = await resetPassword(c.env.ctx, token, {
      password: field(params, "password", 1000),
      confirmation: field(params, "password_confirmation", 1000),
    });
  } catch (e) {
    const errors = formErrorsOf(tr, e);
    if (!errors) throw e;
    return editPage(c, csrf, token, errors, 422);
  }
  if (!done) return invalidLinkPage(c, csrf);
  await endSession(c);
  return messagePage(c, {
    title: tr("auth.password.done_title"),
    text: tr("auth.password.done_text"),
    extra: html`<p><a class="button" href="/auth/sign_in">${tr("common.sign_in")}</a></p>`,
  });
}
