import type { Translate } from "../i18n/index.ts";
import { html, type SafeHtml } from "../pages/html.ts";

/** A date and time in the page's locale (UTC), as a `<time>` element. */
export function when(tr: Translate, iso: string | Date): SafeHtml {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  const text = new Intl.DateTimeFormat(tr.locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
    d,
  );
  return html`<time datetime="${d.toISOString()}">${text} UTC</time>`;
}

/** A date in the page's locale (UTC), as plain text. */
export function dateText(tr: Translate, d: Date): string {
  return new Intl.DateTimeFormat(tr.locale, { dateStyle: "long", timeZone: "UTC" }).format(d);
}

/** A byte count as people read it (1.2 MB). */
export function humanSize(tr: Translate, bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let u = 0;
  while (n >= 1000 && u < units.length - 1) {
    n /= 1000;
    u += 1;
  }
  const digits = u === 0 || n >= 100 ? 0 : 1;
  return `${n.toLocaleString(tr.locale, { maximumFractionDigits: digits })} ${units[u]}`;
}

/** A number in the page's locale. */
export const num = (tr: Translate, n: number): string => n.toLocaleString(tr.locale);

/** A field's error, tied to it by id (`aria-describedby`) and announced. */
export function fieldError(id: string, message: string | undefined): SafeHtml {
  return message ? html`<p class="field-error" id="${id}" role="alert">${message}</p>` : html``;
}

/** The attributes of a field that has an error (or nothing). */
export function invalidAttrs(id: string, message: string | undefined, hintId?: string): SafeHtml {
  const described = [hintId, message ? id : undefined].filter(Boolean).join(" ");
  return html`${described ? html` aria-describedby="${described}"` : ""}${message ? html` aria-invalid="true"` : ""}`;
}

/** The hidden CSRF field of a form. */
export const csrfField = (csrf: string): SafeHtml =>
  html`<input type="hidden" name="authenticity_token" value="${csrf}">`;
