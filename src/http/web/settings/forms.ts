import type { Context } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import type { Params } from "../../oauth/params.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html, type SafeHtml } from "../pages/html.ts";

/** Problems of a posted form, by field name (messages ready to show). */
export type FieldProblems = Record<string, string[]>;

/** The field problems a service reported in Mastodon's 422 `details`, or undefined for other errors. */
export function problemsOf(e: unknown): FieldProblems | undefined {
  if (!(e instanceof ApiError) || e.status !== 422) return undefined;
  const details = e.extra?.details as Record<string, { description: string }[]> | undefined;
  if (!details) return { base: [e.message.replace(/^Validation failed: /, "")] };
  return Object.fromEntries(Object.entries(details).map(([k, list]) => [k, list.map((d) => d.description)]));
}

export const hasProblems = (p: FieldProblems | undefined): p is FieldProblems =>
  p !== undefined && Object.values(p).some((l) => l.length > 0);

/** A value of a Rails-style nested parameter (`a[0][b]` read as `nested(p, "a", "0", "b")`). */
export function nested(params: Params, ...path: string[]): unknown {
  let v: unknown = params;
  for (const k of path) {
    if (v === null || typeof v !== "object" || v instanceof File) return undefined;
    v = Array.isArray(v) ? v[Number(k)] : (v as Record<string, unknown>)[k];
  }
  return v;
}

/** A text parameter (anything else reads as empty), cut to `max` characters. */
export function text(v: unknown, max = 10_000): string {
  return typeof v === "string" ? v.slice(0, max) : "";
}

/** The values of a checkbox group (`name[]`), strings only. */
export function list(v: unknown, max = 500): string[] {
  const arr = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return arr.filter((x): x is string => typeof x === "string" && x !== "").slice(0, max);
}

/** The "Changes saved." notice after a redirect with `?saved=1`. */
export function savedNotice(c: Context<HonoEnv>): string | undefined {
  return c.req.query("saved") === "1" ? t(c)("common.saved") : undefined;
}

/** The summary above a form that came back with problems (announced). */
export function problemSummary(c: Context<HonoEnv>, problems: FieldProblems | undefined): SafeHtml | string {
  if (!hasProblems(problems)) return "";
  const base = problems.base ?? [];
  return html`<div class="error" role="alert" id="form-problems"><p>${t(c)("settings.form.problems")}</p>${
    base.length > 0 ? html`<ul>${base.map((m) => html`<li>${m}</li>`)}</ul>` : ""
  }</div>`;
}

/** The error line under a field (its id is what the field's aria-describedby names). */
export function fieldError(id: string, messages: string[] | undefined): SafeHtml | string {
  if (!messages || messages.length === 0) return "";
  return html`<p class="field-error" id="${id}-error">${messages.join("; ")}</p>`;
}

/** aria-invalid and aria-describedby for a field with problems (and its hint, if any). */
export function describedBy(id: string, messages: string[] | undefined, hint = false): SafeHtml | string {
  const ids = [hint ? `${id}-hint` : "", messages?.length ? `${id}-error` : ""].filter(Boolean).join(" ");
  if (!ids) return "";
  return html` aria-describedby="${ids}"${messages?.length ? html` aria-invalid="true"` : ""}`;
}

/** The hidden CSRF field of every form. */
export const csrfField = (csrf: string): SafeHtml =>
  html`<input type="hidden" name="authenticity_token" value="${csrf}">`;

/** A checkbox with its label (and hint); a form leaving it unchecked sends nothing, read as false. */
export function checkbox(opts: { id: string; name: string; label: string; checked: boolean; hint?: string }): SafeHtml {
  return html`<label class="check" for="${opts.id}"><input type="checkbox" id="${opts.id}" name="${opts.name}" value="1"${opts.checked ? html` checked` : ""}${opts.hint ? html` aria-describedby="${opts.id}-hint"` : ""}><span>${opts.label}${opts.hint ? html`<span class="hint" id="${opts.id}-hint">${opts.hint}</span>` : ""}</span></label>`;
}

/** Dates as the page's locale writes them (UTC). */
export function formatDate(locale: string, iso: string | null | undefined, withTime = false): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    ...(withTime ? { hour: "2-digit", minute: "2-digit" } : {}),
    timeZone: "UTC",
  });
}
