import type { Context } from "hono";
import type { HonoEnv } from "../../types.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, type SafeHtml } from "../pages/html.ts";

/** Every settings page, in the order of the side menu (href, label key). */
export const SETTINGS_MENU: ReadonlyArray<readonly [string, MessageKey]> = [
  ["/settings/profile", "common.menu.profile"],
  ["/settings/preferences", "common.menu.preferences"],
  ["/auth/edit", "common.menu.account"],
  ["/settings/two_factor_authentication_methods", "common.menu.two_factor"],
  ["/settings/sessions", "common.menu.sessions"],
  ["/filters", "common.menu.filters"],
  ["/settings/featured_tags", "common.menu.featured_tags"],
  ["/settings/followed_tags", "common.menu.followed_tags"],
  ["/oauth/authorized_applications", "common.menu.authorized_apps"],
  ["/settings/applications", "common.menu.development"],
  ["/settings/export", "common.menu.export"],
  ["/settings/imports", "common.menu.import"],
  ["/settings/aliases", "common.menu.aliases"],
  ["/settings/migration", "common.menu.migration"],
  ["/settings/delete", "common.menu.delete"],
];

export interface SettingsPageOptions {
  title: string;
  body: SafeHtml;
  /** The menu entry to mark as the current page (its href). */
  current: string;
  status?: number;
  /** A one-line notice above the page ("Changes saved."). */
  notice?: string;
  scripts?: string[];
  formAction?: string[];
}

/** A settings page: the side menu and the page's content, in the wide layout. */
export function sendSettingsPage(c: Context<HonoEnv>, opts: SettingsPageOptions): Response {
  const tr = t(c);
  const menu = html`<nav aria-label="${tr("common.settings_navigation")}"><ul>
${SETTINGS_MENU.map(
  ([href, key]) =>
    html`<li><a href="${href}"${href === opts.current ? html` aria-current="page"` : ""}>${tr(key)}</a></li>\n`,
)}</ul></nav>`;
  const body = html`<div class="settings">${menu}<div>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ""}
${opts.body}
</div></div>`;
  return sendPage(c, {
    title: opts.title,
    body,
    size: "wide",
    status: opts.status,
    scripts: opts.scripts,
    formAction: opts.formAction,
    noindex: true,
  });
}
