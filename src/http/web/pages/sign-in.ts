import type { Context } from "hono";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html } from "./html.ts";

export interface SignInPageInput {
  csrf: string;
  returnTo?: string;
  /** The e-mail address or username typed (sent as `email`, the name clients of the form know). */
  email?: string;
  error?: string;
  status?: number;
  /** Where the flow may redirect after signing in (CSP form-action sources). */
  formAction?: string[];
}

const returnField = (returnTo: string | undefined) =>
  returnTo ? html`<input type="hidden" name="return_to" value="${returnTo}">` : "";

/** The e-mail-or-username and password form; posts to /auth/sign_in and comes back to `returnTo`. */
export function signInPage(c: Context<HonoEnv>, input: SignInPageInput): Response {
  const tr = t(c);
  const siteTitle = c.env.ctx.config.siteTitle;
  const error = input.error;
  const body = html`<h1>${tr("security.sign_in.heading", { site: siteTitle })}</h1>
${error ? html`<p class="error" role="alert" id="sign-in-error">${error}</p>` : ""}
<form method="post" action="/auth/sign_in"${error ? html` aria-describedby="sign-in-error"` : ""}>
<input type="hidden" name="authenticity_token" value="${input.csrf}">
${returnField(input.returnTo)}
<label for="email">${tr("security.sign_in.login")}</label>
<input type="text" id="email" name="email" value="${input.email ?? ""}" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="320" required autofocus${error ? html` aria-invalid="true" aria-describedby="sign-in-error"` : ""}>
<label for="password">${tr("security.sign_in.password")}</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">${tr("security.sign_in.submit")}</button>
</form>
<p class="muted"><a href="/auth/password/new">${tr("security.sign_in.forgot")}</a> · <a href="/auth/sign_up">${tr("security.sign_in.no_account")}</a></p>`;
  return sendPage(c, {
    title: tr("security.sign_in.title"),
    body,
    status: input.status,
    formAction: input.formAction,
  });
}

export interface SecondFactorPageInput {
  csrf: string;
  returnTo?: string;
  error?: string;
  status?: number;
  formAction?: string[];
  /** Whether the user has security keys (the page then offers them first). */
  hasKeys: boolean;
}

/** The second step of a sign-in: a code from the app or a recovery code, or a security key. */
export function secondFactorPage(c: Context<HonoEnv>, input: SecondFactorPageInput): Response {
  const tr = t(c);
  const error = input.error;
  const keys = input.hasKeys
    ? html`<section class="security-key" id="security-key-sign-in" hidden>
<h2>${tr("security.two_factor.key_heading")}</h2>
<p>${tr("security.two_factor.key_text")}</p>
<form method="post" action="/auth/sign_in" id="webauthn-sign-in" data-options="/auth/sign_in/security_key_options">
<input type="hidden" name="authenticity_token" value="${input.csrf}">
${returnField(input.returnTo)}
<input type="hidden" name="credential" value="">
<button type="button" class="webauthn-start">${tr("security.two_factor.key_button")}</button>
<p class="error webauthn-error" role="alert" hidden>${tr("security.webauthn.failed")}</p>
</form>
</section>
<noscript><p class="muted">${tr("security.two_factor.key_needs_script")}</p></noscript>`
    : "";
  const body = html`<h1>${tr("security.two_factor.heading")}</h1>
${error ? html`<p class="error" role="alert" id="otp-error">${error}</p>` : ""}
${keys}
<form method="post" action="/auth/sign_in">
<input type="hidden" name="authenticity_token" value="${input.csrf}">
${returnField(input.returnTo)}
<label for="otp_attempt">${tr("security.two_factor.code_label")}</label>
<p class="hint" id="otp-hint">${tr("security.two_factor.code_hint")}</p>
<input type="text" id="otp_attempt" name="otp_attempt" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="64" required${input.hasKeys ? "" : html` autofocus`} aria-describedby="${error ? "otp-error otp-hint" : "otp-hint"}"${error ? html` aria-invalid="true"` : ""}>
<button type="submit">${tr("security.two_factor.submit")}</button>
</form>
<p class="muted"><a href="/auth/sign_in${input.returnTo ? `?return_to=${encodeURIComponent(input.returnTo)}` : ""}">${tr("security.two_factor.start_over")}</a></p>`;
  return sendPage(c, {
    title: tr("security.two_factor.title"),
    body,
    status: input.status,
    formAction: input.formAction,
    scripts: input.hasKeys ? ["simplewebauthn-browser.js", "webauthn.js"] : [],
  });
}

/** Shown at /auth/sign_in to someone already signed in. */
export function signedInPage(c: Context<HonoEnv>, username: string, csrf: string): Response {
  const tr = t(c);
  const body = html`<h1>${tr("security.signed_in.heading")}</h1>
<p>${tr.html("security.signed_in.text", { name: html`<strong>@${username}</strong>` })}</p>
<form method="post" action="/auth/sign_out">
<input type="hidden" name="authenticity_token" value="${csrf}">
<button type="submit" class="secondary">${tr("common.sign_out")}</button>
</form>`;
  return sendPage(c, { title: tr("security.signed_in.heading"), body });
}
