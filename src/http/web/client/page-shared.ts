import type { Context } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html, SafeHtml } from "../pages/html.ts";
import { type ClientUser, sendClientPage } from "./layout.ts";

/**
 * Runs a page's loading; a 404 or 410 the API would answer (a post or account the viewer may not
 * see, or gone) becomes the client's not-found page with that status.
 */
export async function orNotFound(
  c: Context<HonoEnv>,
  me: ClientUser,
  load: () => Promise<Response>,
): Promise<Response> {
  try {
    return await load();
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 410)) {
      const tr = t(c);
      return sendClientPage(c, me, {
        title: tr("client.pages.not_found"),
        body: html`<p class="notice" role="alert">${tr("client.pages.not_found_text")}</p>`,
        status: e.status,
      });
    }
    throw e;
  }
}

/** Tabs as links, the current one marked. */
export function tabs(label: string, items: ReadonlyArray<readonly [string, string, boolean]>): SafeHtml {
  return html`<nav class="client-tabs" aria-label="${label}"><ul>${items.map(
    ([href, text, current]) => html`<li><a href="${href}"${current ? html` aria-current="page"` : ""}>${text}</a></li>`,
  )}</ul></nav>`;
}

/** HTML made by the shared renderer (it escapes every text itself). */
export const rendered = (s: string): SafeHtml => new SafeHtml(s);

/** A "load more" button for a list: the API path of the next page, or nothing at the end. */
export function loadMore(c: Context<HonoEnv>, listId: string, kind: string, next: string | undefined): SafeHtml | "" {
  if (next === undefined) return "";
  return html`<button type="button" class="load-more pages-more" data-list="${listId}" data-kind="${kind}" data-pages-next="${next}">${t(c)("client.load_more")}</button>`;
}
