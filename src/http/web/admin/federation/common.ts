import type { Context } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import type { IdWindow } from "../../../../lib/pagination.ts";
import type { HonoEnv } from "../../../types.ts";
import { t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";

export { checkbox, csrfField, formatDate } from "../../settings/forms.ts";
export { adminNotFound as notFoundPage, redirectWithNotice as done } from "../layout.ts";

/** Rows per page of the federation lists. */
export const PAGE_SIZE = 50;

/** The page's window: `?max_id=` for older rows (the lists are newest first, as the admin API). */
export function windowOf(c: Context<HonoEnv>): IdWindow {
  const max = c.req.query("max_id");
  return { limit: PAGE_SIZE + 1, maxId: max && /^\d{1,19}$/.test(max) ? max : undefined };
}

/** The rows of a page (one more was read to know whether an older page exists) and its "Older" link. */
export function paged<T extends { id: string }>(
  c: Context<HonoEnv>,
  rows: T[],
  path: string,
): { rows: T[]; older: SafeHtml | string } {
  const more = rows.length > PAGE_SIZE;
  const shown = rows.slice(0, PAGE_SIZE);
  const last = shown.at(-1);
  const older =
    more && last
      ? html`<p class="admin-actions"><a href="${path}?max_id=${last.id}" rel="next">${t(c)("admin.older")}</a></p>`
      : "";
  return { rows: shown, older };
}

/** The message of a refusal a service answered with (422 validation, 404), for the form's error line. */
export function refusal(e: unknown): { status: number; message: string } | undefined {
  if (!(e instanceof ApiError) || (e.status !== 422 && e.status !== 404)) return undefined;
  return { status: e.status, message: e.message.replace(/^Validation failed: /, "") };
}

/** A one-button form (delete, remove) posting to `action`. */
export function buttonForm(action: string, csrf: string, label: string, hidden: string, cls = "link"): SafeHtml {
  return html`<form method="post" action="${action}"><input type="hidden" name="authenticity_token" value="${csrf}"><button type="submit" class="${cls}">${label}<span class="visually-hidden"> ${hidden}</span></button></form>`;
}
