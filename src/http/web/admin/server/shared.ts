import type { Context } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import type { Params } from "../../../oauth/params.ts";
import type { HonoEnv } from "../../../types.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import type { Staff } from "../guard.ts";
import { adminNotFound, redirectWithNotice } from "../layout.ts";

/** The staff member as the action log names them. */
export const actingAs = (me: Staff) => moderatorOf(me.account);

/** After a successful POST: back to `path` with a one-line notice (`admin.<part>.<key>`). */
export function done(c: Context<HonoEnv>, path: string, notice: MessageKey): Response {
  return redirectWithNotice(c, path, notice);
}

/**
 * What a refused action says on the page: the service's 422 (or 403) message without Mastodon's
 * "Validation failed: " prefix. Other errors are thrown on.
 */
export function refusal(e: unknown): string {
  if (e instanceof ApiError && (e.status === 422 || e.status === 403 || e.status === 400)) {
    return e.message.replace(/^Validation failed: /, "") || "This action is not allowed";
  }
  throw e;
}

/** Runs a page's lookup: a 404 of the service becomes the panel's not-found page. */
export async function found<T>(c: Context<HonoEnv>, load: () => Promise<T>): Promise<T | Response> {
  try {
    return await load();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return adminNotFound(c);
    throw e;
  }
}

/** A text field, trimmed at the ends when `trim`. */
export function textField(params: Params, name: string, max = 10_000, trim = false): string {
  const v = params[name];
  const s = typeof v === "string" ? v.slice(0, max) : "";
  return trim ? s.trim() : s;
}

/** A one-button form posting to `action` (with the CSRF token). */
export function buttonForm(action: string, csrf: string, label: string, cls = ""): SafeHtml {
  return html`<form method="post" action="${action}"><input type="hidden" name="authenticity_token" value="${csrf}"><button type="submit"${cls ? html` class="${cls}"` : ""}>${label}</button></form>`;
}

/** A `<select>` with its options (value, label), the current one selected. */
export function select(
  id: string,
  name: string,
  current: string,
  options: readonly (readonly [string, string])[],
): SafeHtml {
  return html`<select id="${id}" name="${name}">${options.map(
    ([value, label]) => html`<option value="${value}"${value === current ? html` selected` : ""}>${label}</option>`,
  )}</select>`;
}

/** The uploaded file of a multipart form field, if one was sent. */
export async function fileOf(params: Params, name: string): Promise<Uint8Array | undefined> {
  const v = params[name];
  if (!(v instanceof File) || v.size === 0) return undefined;
  return new Uint8Array(await v.arrayBuffer());
}
