import type { Context } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import { sanitizeRemoteHtml } from "../../../lib/text/remote-html.ts";
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from "../../../services/accounts/create-local-account.ts";
import { REASON_MAX, signUp } from "../../../services/accounts/register-account.ts";
import { loadSiteInfo, type SiteInfo } from "../../../services/instance/site-settings.ts";
import { getRules } from "../../../services/instance/site-texts.ts";
import { markSignedIn } from "../../../services/oauth/sign-in.ts";
import { clientIpOf } from "../../middleware/client-ip.ts";
import type { HonoEnv } from "../../types.ts";
import { checked, field, readForm } from "../guard.ts";
import { pageLocale, t, WEB_LOCALES } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, SafeHtml } from "../pages/html.ts";
import { csrfToken, ensureSession, loadSession, startSession } from "../session.ts";
import {
  csrfField,
  type FormErrors,
  fieldError,
  formErrorsOf,
  inputField,
  limitExceeded,
  localeName,
} from "./forms.ts";

const FIVE_MIN = 5 * 60 * 1000;

/** What the visitor typed, given back with the errors (never the passwords). */
interface SignUpValues {
  username: string;
  email: string;
  locale: string;
  reason: string;
  dateOfBirth: string;
  agreement: boolean;
}

interface Rule {
  text: string;
  hint: string;
}

/** The page for closed sign-ups (registration mode `none`, single-user mode, or a blocked address). */
function closedPage(c: Context<HonoEnv>, site: SiteInfo, status: number): Response {
  const tr = t(c);
  const message = site.closedRegistrationsMessage;
  const body = html`<h1>${tr("auth.closed.title")}</h1>
${message ? html`<div class="closed-message">${new SafeHtml(sanitizeRemoteHtml(message))}</div>` : html`<p>${tr("auth.closed.text", { site: site.title })}</p>`}
<p><a href="/about">${tr("auth.closed.about")}</a></p>`;
  return sendPage(c, { title: tr("auth.closed.title"), body, status, siteTitle: site.title, noindex: true });
}

function signUpForm(
  c: Context<HonoEnv>,
  input: { csrf: string; site: SiteInfo; rules: Rule[]; values: SignUpValues; errors: FormErrors; status?: number },
): Response {
  const tr = t(c);
  const { site, values, errors } = input;
  const ctx = c.env.ctx;
  const approval = site.registrationsMode === "approved";
  const reasonRequired = approval && site.requireInviteText;
  const domain = ctx.config.localDomain;
  const agreementLabel = tr.html("auth.sign_up.agreement", {
    rules: html`<a href="/about">${tr("auth.sign_up.agreement_rules")}</a>`,
    terms: html`<a href="/terms-of-service">${tr("auth.sign_up.agreement_terms")}</a>`,
    privacy: html`<a href="/privacy-policy">${tr("auth.sign_up.agreement_privacy")}</a>`,
  });
  const body = html`<h1>${tr("auth.sign_up.title", { site: site.title })}</h1>
${approval ? html`<p class="notice">${tr("auth.sign_up.approval_notice")}</p>` : ""}
<form method="post" action="/auth/sign_up" novalidate>
${csrfField(input.csrf)}
${inputField({
  name: "username",
  label: tr("auth.field.username"),
  value: values.username,
  error: errors.username,
  hint: tr("auth.sign_up.username_hint", { domain }),
  autocomplete: "username",
  required: true,
  attrs: html`maxlength="${USERNAME_MAX}" autocapitalize="none" spellcheck="false"`,
})}
${inputField({
  name: "email",
  type: "email",
  label: tr("auth.field.email"),
  value: values.email,
  error: errors.email,
  autocomplete: "email",
  required: true,
})}
${inputField({
  name: "password",
  type: "password",
  label: tr("auth.field.password"),
  error: errors.password,
  hint: tr("auth.password_hint", { min: PASSWORD_MIN, max: PASSWORD_MAX }),
  autocomplete: "new-password",
  required: true,
})}
${inputField({
  name: "password_confirmation",
  type: "password",
  label: tr("auth.field.password_confirmation"),
  error: errors.password_confirmation,
  autocomplete: "new-password",
  required: true,
})}
${
  site.minAge !== null
    ? inputField({
        name: "date_of_birth",
        type: "date",
        label: tr("auth.field.date_of_birth"),
        value: values.dateOfBirth,
        error: errors.date_of_birth,
        hint: tr("auth.sign_up.date_of_birth_hint", { age: site.minAge }),
        autocomplete: "bday",
        required: true,
      })
    : ""
}
${
  approval
    ? html`<label for="reason">${tr(reasonRequired ? "auth.field.reason" : "auth.field.reason_optional")}</label>
<textarea id="reason" name="reason" maxlength="${REASON_MAX}" aria-describedby="reason-hint${errors.reason ? " reason-error" : ""}"${reasonRequired ? html` required` : ""}${errors.reason ? html` aria-invalid="true"` : ""}>${values.reason}</textarea>
<p class="hint" id="reason-hint">${tr("auth.sign_up.reason_hint")}</p>
${fieldError("reason", errors.reason)}`
    : ""
}
<label for="locale">${tr("auth.field.locale")}</label>
<select id="locale" name="locale">
${WEB_LOCALES.map((l) => html`<option value="${l}"${l === values.locale ? html` selected` : ""}>${localeName(tr, l)}</option>`)}
</select>
<fieldset class="rules"${errors.agreement ? html` aria-describedby="agreement-error"` : ""}>
<legend>${tr("auth.sign_up.rules_title")}</legend>
${
  input.rules.length > 0
    ? html`<p>${tr("auth.sign_up.rules_intro", { site: site.title })}</p>
<ol class="rules">${input.rules.map((r) => html`<li>${r.text}${r.hint ? html`<span class="hint">${r.hint}</span>` : ""}</li>`)}</ol>`
    : ""
}
<label class="check" for="agreement"><input type="checkbox" id="agreement" name="agreement" value="1"${values.agreement ? html` checked` : ""} required${errors.agreement ? html` aria-invalid="true"` : ""}><span>${agreementLabel}</span></label>
${fieldError("agreement", errors.agreement)}
</fieldset>
<button type="submit">${tr("auth.sign_up.submit")}</button>
</form>
<p class="muted">${tr.html("auth.sign_up.have_account", { link: html`<a href="/auth/sign_in">${tr("auth.sign_up.sign_in")}</a>` })}</p>`;
  return sendPage(c, {
    title: tr("auth.sign_up.page_title"),
    body,
    status: input.status,
    siteTitle: site.title,
    noindex: true,
  });
}

async function loadRules(c: Context<HonoEnv>): Promise<Rule[]> {
  return (await getRules(c.env.ctx)).map((r) => ({ text: r.text, hint: r.hint }));
}

/** `GET /auth/sign_up`: the form, or the closed page; a signed-in visitor goes on to the setup page. */
export async function showSignUp(c: Context<HonoEnv>): Promise<Response> {
  const ctx = c.env.ctx;
  const session = await ensureSession(c);
  if (session.user) return c.redirect("/auth/setup", 302);
  const site = await loadSiteInfo(ctx);
  if (site.registrationsMode === "none") return closedPage(c, site, 200);
  const values: SignUpValues = {
    username: "",
    email: "",
    locale: pageLocale(c),
    reason: "",
    dateOfBirth: "",
    agreement: false,
  };
  return signUpForm(c, { csrf: csrfToken(c, session), site, rules: await loadRules(c), values, errors: {} });
}

/**
 * `POST /auth/sign_up`: the same sign-up service as `POST /api/v1/accounts` (registration mode,
 * IP and e-mail blocks, username rules, the confirmation mail); then the new user is signed in
 * and sent to the setup page.
 */
export async function submitSignUp(c: Context<HonoEnv>): Promise<Response> {
  const ctx = c.env.ctx;
  const limited = await limitExceeded(c, "sign_up", 25, FIVE_MIN);
  if (limited) return limited;
  const session = await loadSession(c);
  const params = await readForm(c, session);
  if (params instanceof Response) return params;
  const site = await loadSiteInfo(ctx);
  if (site.registrationsMode === "none") return closedPage(c, site, 403);
  const locale = field(params, "locale", 20);
  const values: SignUpValues = {
    username: field(params, "username", 100).trim(),
    email: field(params, "email", 320).trim(),
    locale: WEB_LOCALES.includes(locale) ? locale : pageLocale(c),
    reason: field(params, "reason", 2000),
    dateOfBirth: field(params, "date_of_birth", 20),
    agreement: checked(params, "agreement"),
  };
  const ip = clientIpOf(c);
  let created: Awaited<ReturnType<typeof signUp>>;
  try {
    created = await signUp(ctx, {
      ip,
      username: values.username,
      email: values.email,
      password: field(params, "password", 1000),
      passwordConfirmation: field(params, "password_confirmation", 1000),
      agreement: values.agreement,
      locale: values.locale,
      reason: site.registrationsMode === "approved" ? values.reason : undefined,
      dateOfBirth: site.minAge !== null ? values.dateOfBirth : undefined,
    });
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) return closedPage(c, site, 403);
    const tr = t(c);
    const errors = formErrorsOf(tr, e, { age: site.minAge ?? 0 });
    if (!errors) throw e;
    return signUpForm(c, {
      csrf: csrfToken(c, session!),
      site,
      rules: await loadRules(c),
      values,
      errors,
      status: 422,
    });
  }
  await startSession(c, created.user, created.account);
  await markSignedIn(ctx, created.user, ip);
  return c.redirect("/auth/setup", 302);
}
