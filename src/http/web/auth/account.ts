import type { Context } from "hono";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../../services/accounts/create-local-account.ts";
import { requestEmailChange } from "../../../services/accounts/email-change.ts";
import { changePassword } from "../../../services/accounts/password-change.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm, requireUser, type SignedIn } from "../guard.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { startSession } from "../session.ts";
import { sendSettingsPage } from "../settings/layout.ts";
import { csrfField, type FormErrors, formErrorsOf, inputField } from "./forms.ts";

const DONE: Record<string, MessageKey> = {
  email: "auth.edit.email_sent",
  cancelled: "auth.edit.email_cancelled",
  unchanged: "auth.edit.email_unchanged",
  password: "auth.edit.password_changed",
};

interface AccountPageState {
  emailErrors?: FormErrors;
  passwordErrors?: FormErrors;
  email?: string;
  notice?: string;
  status?: number;
}

/** The account page: e-mail address, password, and links to sign-in security and deletion. */
function accountPage(c: Context<HonoEnv>, me: SignedIn, state: AccountPageState = {}): Response {
  const tr = t(c);
  const { user } = me;
  const ee = state.emailErrors ?? {};
  const pe = state.passwordErrors ?? {};
  const body = html`<h1>${tr("auth.edit.title")}</h1>
<section class="account" aria-labelledby="email-heading">
<h2 id="email-heading">${tr("auth.edit.email_title")}</h2>
<p>${tr.html("auth.edit.current_email", { email: html`<strong>${user.email}</strong>` })}</p>
${user.unconfirmedEmail ? html`<p class="notice">${tr.html("auth.edit.pending_email", { email: html`<strong>${user.unconfirmedEmail}</strong>` })}</p>` : ""}
<form method="post" action="/auth/edit/email" novalidate>
${csrfField(me.csrf)}
${inputField({ name: "email", type: "email", label: tr("auth.field.new_email"), value: state.email ?? "", error: ee.email, autocomplete: "email", required: true })}
${inputField({ name: "current_password", id: "email_current_password", type: "password", label: tr("auth.field.current_password"), error: ee.current_password, autocomplete: "current-password", required: true })}
<button type="submit">${tr("auth.edit.email_submit")}</button>
</form>
</section>
<section class="account" aria-labelledby="password-heading">
<h2 id="password-heading">${tr("auth.edit.password_title")}</h2>
<form method="post" action="/auth/edit/password" novalidate>
${csrfField(me.csrf)}
${inputField({ name: "current_password", id: "password_current_password", type: "password", label: tr("auth.field.current_password"), error: pe.current_password, autocomplete: "current-password", required: true })}
${inputField({ name: "password", type: "password", label: tr("auth.field.new_password"), error: pe.password, hint: tr("auth.password_hint", { min: PASSWORD_MIN, max: PASSWORD_MAX }), autocomplete: "new-password", required: true })}
${inputField({ name: "password_confirmation", type: "password", label: tr("auth.field.password_confirmation"), error: pe.password_confirmation, autocomplete: "new-password", required: true })}
<p class="hint">${tr("auth.edit.password_sessions")}</p>
<button type="submit">${tr("auth.edit.password_submit")}</button>
</form>
</section>
<section class="account" aria-labelledby="security-heading">
<h2 id="security-heading">${tr("auth.edit.security_title")}</h2>
<ul>
<li><a href="/settings/two_factor_authentication_methods">${tr("common.menu.two_factor")}</a></li>
<li><a href="/settings/sessions">${tr("common.menu.sessions")}</a></li>
</ul>
</section>
<section class="account" aria-labelledby="delete-heading">
<h2 id="delete-heading">${tr("common.menu.delete")}</h2>
<p><a href="/settings/delete">${tr("auth.edit.delete_link")}</a></p>
</section>`;
  return sendSettingsPage(c, {
    title: tr("auth.edit.title"),
    body,
    current: "/auth/edit",
    notice: state.notice,
    status: state.status,
  });
}

/** `GET /auth/edit`: the account page. */
export async function showAccount(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const done = DONE[c.req.query("done") ?? ""];
  return accountPage(c, me, { notice: done ? t(c)(done) : undefined });
}

/** `POST /auth/edit/email`: a new address, taking effect once confirmed through the link mailed to it. */
export async function submitEmailChange(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const params = await readForm(c, me.session);
  if (params instanceof Response) return params;
  const email = field(params, "email", 320);
  let outcome: Awaited<ReturnType<typeof requestEmailChange>>;
  try {
    outcome = await requestEmailChange(c.env.ctx, me.user, {
      currentPassword: field(params, "current_password", 1000),
      email,
    });
  } catch (e) {
    const emailErrors = formErrorsOf(t(c), e);
    if (!emailErrors) throw e;
    return accountPage(c, me, { emailErrors, email, status: 422 });
  }
  return c.redirect(`/auth/edit?done=${outcome === "sent" ? "email" : outcome}`, 302);
}

/**
 * `POST /auth/edit/password`: a new password. This browser stays signed in (a new session with the
 * new password's fingerprint); every other browser session ends.
 */
export async function submitPasswordChange(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const params = await readForm(c, me.session);
  if (params instanceof Response) return params;
  let updated: Awaited<ReturnType<typeof changePassword>>;
  try {
    updated = await changePassword(c.env.ctx, me.user, {
      currentPassword: field(params, "current_password", 1000),
      password: field(params, "password", 1000),
      confirmation: field(params, "password_confirmation", 1000),
    });
  } catch (e) {
    const passwordErrors = formErrorsOf(t(c), e);
    if (!passwordErrors) throw e;
    return accountPage(c, me, { passwordErrors, status: 422 });
  }
  await startSession(c, updated, me.account);
  return c.redirect("/auth/edit?done=password", 302);
}
