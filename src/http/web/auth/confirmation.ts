import type { Context } from "hono";
import { isValidEmail } from "../../../lib/email.ts";
import {
  confirmEmail,
  normalizeEmail,
  resendConfirmation,
  resendConfirmationTo,
} from "../../../services/accounts/email-confirmation.ts";
import type { User } from "../../../services/accounts/types.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm, requireUser } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { csrfToken, ensureSession, loadSession } from "../session.ts";
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

/** The form asking for a new confirmation link (by e-mail address). */
function resendForm(c: Context<HonoEnv>, csrf: string, email = "", error?: string): SafeHtml {
  return emailForm(c, "/auth/confirmation", t(c)("auth.confirmation.resend"), csrf, email, error);
}

/** The setup page's content for a user who still has to confirm an address or wait for approval. */
function setupPage(
  c: Context<HonoEnv>,
  user: User,
  csrf: string,
  opts: { errors?: FormErrors; email?: string; notice?: string; status?: number } = {},
): Response {
  const tr = t(c);
  const pendingAddress = user.unconfirmedEmail ?? user.email;
  let body: SafeHtml;
  if (user.confirmedAt === null) {
    body = html`<h1>${tr("auth.setup.confirm_title")}</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ""}
<p>${tr.html("auth.setup.confirm_text", { email: html`<strong>${pendingAddress}</strong>` })}</p>
<p class="muted">${tr("auth.setup.confirm_spam")}</p>
<form method="post" action="/auth/confirmation">
${csrfField(csrf)}
<input type="hidden" name="email" value="${pendingAddress}">
<button type="submit" class="secondary">${tr("auth.confirmation.resend")}</button>
</form>
<h2>${tr("auth.setup.wrong_address")}</h2>
<form method="post" action="/auth/setup">
${csrfField(csrf)}
${inputField({ name: "email", type: "email", label: tr("auth.setup.new_address"), value: opts.email ?? pendingAddress, error: opts.errors?.email, autocomplete: "email", required: true })}
<button type="submit">${tr("auth.setup.change_address")}</button>
</form>`;
  } else {
    body = html`<h1>${tr("auth.setup.pending_title")}</h1>
<p role="status">${tr("auth.setup.pending_text")}</p>`;
  }
  return sendPage(c, { title: tr("auth.setup.page_title"), body, status: opts.status, noindex: true });
}

/** Whether a user has nothing left to do before using the account. */
const usable = (user: User) => user.confirmedAt !== null && user.approved;

/** `GET /auth/setup`: the pending state of a new account (unconfirmed address or awaiting approval). */
export async function showSetup(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  if (usable(me.user)) return c.redirect("/", 302);
  const tr = t(c);
  return setupPage(c, me.user, me.csrf, {
    notice: c.req.query("resent") === "1" ? tr("auth.setup.resent") : undefined,
  });
}

/** `POST /auth/setup`: corrects the address of an unconfirmed account and sends the link to it. */
export async function submitSetup(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const params = await readForm(c, me.session);
  if (params instanceof Response) return params;
  if (me.user.confirmedAt !== null) return c.redirect("/auth/setup", 302);
  const limited =
    (await limitExceeded(c, "email_confirmations", 25, FIVE_MIN)) ??
    (await limitExceeded(c, "email_confirmations", 5, THIRTY_MIN, `user:${me.user.id}`));
  if (limited) return limited;
  const email = field(params, "email", 320);
  try {
    await resendConfirmation(c.env.ctx, me.user, email);
  } catch (e) {
    const errors = formErrorsOf(t(c), e);
    if (!errors) throw e;
    return setupPage(c, me.user, me.csrf, { errors, email, status: 422 });
  }
  return c.redirect("/auth/setup?resent=1", 302);
}

/**
 * `GET /auth/confirmation?confirmation_token=`: the link in the confirmation mail (of a sign-up or
 * of a new address). A signed-in user still waiting for approval goes on to the setup page.
 */
export async function confirm(c: Context<HonoEnv>): Promise<Response> {
  const ctx = c.env.ctx;
  const tr = t(c);
  const confirmed = await confirmEmail(ctx, c.req.query("confirmation_token") ?? "");
  const session = await ensureSession(c);
  if (!confirmed) {
    return messagePage(c, {
      title: tr("auth.confirmation.invalid_title"),
      text: tr("auth.confirmation.invalid_text"),
      error: true,
      status: 404,
      extra: html`<h2>${tr("auth.confirmation.new_title")}</h2>${resendForm(c, csrfToken(c, session))}`,
    });
  }
  if (confirmed.redirectUri && c.req.query("redirect_to_app") === "true") return c.redirect(confirmed.redirectUri);
  const mine = session.user?.id === confirmed.user.id;
  if (mine && !confirmed.user.approved) return c.redirect("/auth/setup", 302);
  return messagePage(c, {
    title: tr("auth.confirmation.done_title"),
    text: tr("auth.confirmation.done_text", { email: confirmed.user.email }),
    extra: mine
      ? html`<p><a class="button" href="/">${tr("auth.confirmation.continue")}</a></p>`
      : html`<p><a class="button" href="/auth/sign_in">${tr("common.sign_in")}</a></p>`,
  });
}

/** `GET /auth/confirmation/new`: asks for the address to send a new confirmation link to. */
export async function showResend(c: Context<HonoEnv>): Promise<Response> {
  const tr = t(c);
  const session = await ensureSession(c);
  const body = html`<h1>${tr("auth.confirmation.new_title")}</h1>
<p>${tr("auth.confirmation.new_text")}</p>
${resendForm(c, csrfToken(c, session))}`;
  return sendPage(c, { title: tr("auth.confirmation.new_title"), body, noindex: true });
}

/**
 * `POST /auth/confirmation`: sends a new confirmation link to the account with this address (or
 * this pending new address) when one waits for confirmation. The answer is the same whether or
 * not there is such an account.
 */
export async function submitResend(c: Context<HonoEnv>): Promise<Response> {
  const ctx = c.env.ctx;
  const tr = t(c);
  const limited = await limitExceeded(c, "email_confirmations", 25, FIVE_MIN);
  if (limited) return limited;
  const session = await loadSession(c);
  const params = await readForm(c, session);
  if (params instanceof Response) return params;
  const email = normalizeEmail(field(params, "email", 320));
  if (!isValidEmail(email)) {
    const body = html`<h1>${tr("auth.confirmation.new_title")}</h1>
${resendForm(c, csrfToken(c, session!), email, tr("auth.error.email.ERR_INVALID"))}`;
    return sendPage(c, { title: tr("auth.confirmation.new_title"), body, status: 422, noindex: true });
  }
  const byEmail = await limitExceeded(c, "email_confirmations", 5, THIRTY_MIN, `email:${email}`);
  if (byEmail) return byEmail;
  const user = await resendConfirmationTo(ctx, email);
  if (session?.user && session.user.id === user?.id) return c.redirect("/auth/setup?resent=1", 302);
  return messagePage(c, { title: tr("auth.confirmation.sent_title"), text: tr("auth.confirmation.sent_text") });
}
