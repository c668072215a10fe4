import type { Context } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import {
  type FieldError,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
} from "../../../services/accounts/create-local-account.ts";
import { REASON_MAX } from "../../../services/accounts/register-account.ts";
import { clientIpOf, isLoopback } from "../../middleware/client-ip.ts";
import type { HonoEnv } from "../../types.ts";
import { en } from "../i18n/en/index.ts";
import { type MessageKey, type Translate, t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, type SafeHtml } from "../pages/html.ts";

/** The first problem of each field of a form, as text for the person filling it in. */
export type FormErrors = Record<string, string>;

const known = (key: string): key is MessageKey => (en as Record<string, string>)[key] !== undefined;

/** A locale's name in the page's language (the tag itself when the table has none). */
export function localeName(tr: Translate, locale: string): string {
  const key = `auth.locale.${locale}`;
  return known(key) ? tr(key) : locale;
}

/** The limits error messages name. */
const LIMITS = { min: PASSWORD_MIN, max: PASSWORD_MAX, username_max: USERNAME_MAX, reason_max: REASON_MAX };

/** A service's field error in words: `auth.error.<field>.<code>`, else `auth.error.<code>`, else its description. */
export function fieldMessage(tr: Translate, field: string, err: FieldError, vars: Record<string, number> = {}): string {
  for (const key of [`auth.error.${field}.${err.error}`, `auth.error.${err.error}`]) {
    if (known(key)) return tr(key, { ...LIMITS, ...vars });
  }
  return err.description;
}

/**
 * The field errors of a registration-style 422 (`details`), in words; undefined when `e` is not
 * one (the caller rethrows it).
 */
export function formErrorsOf(tr: Translate, e: unknown, vars: Record<string, number> = {}): FormErrors | undefined {
  if (!(e instanceof ApiError) || e.status !== 422) return undefined;
  const details = e.extra?.details as Record<string, FieldError[]> | undefined;
  if (!details) return undefined;
  const out: FormErrors = {};
  for (const [field, errs] of Object.entries(details)) if (errs[0]) out[field] = fieldMessage(tr, field, errs[0], vars);
  return out;
}

/** The CSRF token field every form carries. */
export function csrfField(csrf: string): SafeHtml {
  return html`<input type="hidden" name="authenticity_token" value="${csrf}">`;
}

/** An error under a field, tied to it by `aria-describedby` and announced. */
export function fieldError(id: string, message: string | undefined): SafeHtml {
  return message ? html`<p class="field-error" id="${id}-error" role="alert">${message}</p>` : html``;
}

export interface InputOptions {
  name: string;
  label: string;
  /** The element id (default: the name). */
  id?: string;
  type?: string;
  value?: string;
  error?: string;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  /** Extra attributes, already markup (`maxlength="30"`). */
  attrs?: SafeHtml;
}

/** A labelled input with its hint and error, described by both. */
export function inputField(o: InputOptions): SafeHtml {
  const id = o.id ?? o.name;
  const describedBy = [o.hint ? `${id}-hint` : "", o.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`<label for="${id}">${o.label}</label>
<input type="${o.type ?? "text"}" id="${id}" name="${o.name}"${o.value !== undefined ? html` value="${o.value}"` : ""}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ""}${o.required ? html` required` : ""}${describedBy ? html` aria-describedby="${describedBy}"` : ""}${o.error ? html` aria-invalid="true"` : ""}${o.attrs ? html` ${o.attrs}` : ""}>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ""}${fieldError(id, o.error)}`;
}

/**
 * Counts a form submission against a limit (Mastodon's Rack::Attack throttles on `/auth`): by
 * client address, or by another key such as the e-mail address. Answers the 429 page once the
 * limit is passed; loopback clients and RATE_LIMITS=off are exempt, as in the API.
 */
export async function limitExceeded(
  c: Context<HonoEnv>,
  name: string,
  limit: number,
  periodMs: number,
  key?: string,
): Promise<Response | undefined> {
  const ctx = c.env.ctx;
  const ip = clientIpOf(c);
  if (!ctx.config.rateLimits.enabled || isLoopback(ip)) return undefined;
  const { count, resetAt } = await ctx.rateLimits.hit(`web_${name}:${key === undefined ? `ip:${ip}` : key}`, periodMs);
  if (count <= limit) return undefined;
  const tr = t(c);
  c.header("Retry-After", String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))));
  return sendPage(c, {
    title: tr("auth.too_many"),
    body: html`<h1>${tr("auth.too_many")}</h1>
<p class="error" role="alert">${tr("auth.too_many_text")}</p>`,
    status: 429,
    noindex: true,
  });
}

/** A short page: a heading, a paragraph (an alert for errors), and optional extra markup. */
export function messagePage(
  c: Context<HonoEnv>,
  opts: { title: string; text: string; status?: number; error?: boolean; extra?: SafeHtml },
): Response {
  const body = html`<h1>${opts.title}</h1>
<p${opts.error ? html` class="error" role="alert"` : html` role="status"`}>${opts.text}</p>
${opts.extra ?? ""}`;
  return sendPage(c, { title: opts.title, body, status: opts.status, noindex: true });
}

/** A form asking only for an e-mail address (new confirmation link, password reset link). */
export function emailForm(
  c: Context<HonoEnv>,
  action: string,
  button: string,
  csrf: string,
  email = "",
  error?: string,
): SafeHtml {
  const tr = t(c);
  return html`<form method="post" action="${action}">
${csrfField(csrf)}
${inputField({ name: "email", type: "email", label: tr("auth.field.email"), value: email, error, autocomplete: "email", required: true })}
<button type="submit">${button}</button>
</form>`;
}
