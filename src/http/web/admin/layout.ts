import type { Context } from "hono";
import type { HonoEnv } from "../../types.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { errorPage } from "../pages/notices.ts";
import { Permission, type Staff } from "./guard.ts";

/** Every panel page, in the order of the side menu: href, label key, the permission it needs. */
export const ADMIN_MENU: ReadonlyArray<readonly [string, MessageKey, number]> = [
  ["/admin/dashboard", "admin.menu.dashboard", Permission.viewDashboard],
  ["/admin/reports", "admin.menu.reports", Permission.manageReports],
  ["/admin/accounts", "admin.menu.accounts", Permission.manageUsers],
  ["/admin/instances", "admin.menu.instances", Permission.manageFederation],
  ["/admin/domain_blocks", "admin.menu.domain_blocks", Permission.manageFederation],
  ["/admin/domain_allows", "admin.menu.domain_allows", Permission.manageFederation],
  ["/admin/email_domain_blocks", "admin.menu.email_domain_blocks", Permission.manageBlocks],
  ["/admin/canonical_email_blocks", "admin.menu.canonical_email_blocks", Permission.manageBlocks],
  ["/admin/ip_blocks", "admin.menu.ip_blocks", Permission.manageBlocks],
  ["/admin/announcements", "admin.menu.announcements", Permission.manageAnnouncements],
  ["/admin/custom_emojis", "admin.menu.custom_emojis", Permission.manageCustomEmojis],
  ["/admin/rules", "admin.menu.rules", Permission.manageRules],
  ["/admin/roles", "admin.menu.roles", Permission.manageRoles],
  ["/admin/settings", "admin.menu.settings", Permission.manageSettings],
  ["/admin/trends", "admin.menu.trends", Permission.manageTaxonomies],
  ["/admin/jobs", "admin.menu.jobs", Permission.devops],
  ["/admin/action_logs", "admin.menu.action_logs", Permission.viewAuditLog],
];

export interface AdminPageOptions {
  title: string;
  body: SafeHtml;
  /** The menu entry to mark as the current page (its href). */
  current: string;
  status?: number;
  /** A one-line notice above the page ("Domain blocked."). */
  notice?: string;
  /** An error above the page (a refused action). */
  error?: string;
  scripts?: string[];
}

/**
 * A moderation panel page: the side menu (only the entries the staff member's role allows) and
 * the page's content, in the wide layout, never indexed or cached.
 */
export async function sendAdminPage(c: Context<HonoEnv>, me: Staff, opts: AdminPageOptions): Promise<Response> {
  const tr = t(c);
  const allowed: SafeHtml[] = [];
  for (const [href, key, permission] of ADMIN_MENU) {
    if (!(await me.can(permission))) continue;
    const current = href === opts.current ? html` aria-current="page"` : "";
    allowed.push(html`<li><a href="${href}"${current}>${tr(key)}</a></li>\n`);
  }
  const menu = html`<nav aria-label="${tr("admin.navigation")}"><p class="admin-heading">${tr("admin.panel")}</p><ul>
${allowed}</ul></nav>`;
  const body = html`<div class="settings admin">${menu}<div>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ""}
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ""}
${opts.body}
</div></div>`;
  return sendPage(c, {
    title: opts.title,
    body,
    size: "wide",
    status: opts.status,
    scripts: opts.scripts,
    noindex: true,
  });
}

/** The first panel page this staff member may open (the dashboard for most). */
export async function firstAdminPage(me: Staff): Promise<string | undefined> {
  for (const [href, , permission] of ADMIN_MENU) if (await me.can(permission)) return href;
  return undefined;
}

/** A one-line notice carried over a redirect (`?notice=key`), only from the panel's own keys. */
export function noticeFrom(c: Context<HonoEnv>): string | undefined {
  const key = c.req.query("notice");
  if (!key || !/^admin\.[a-z_.]+$/.test(key)) return undefined;
  const tr = t(c);
  const text = tr(key as MessageKey);
  return text === key ? undefined : text;
}

/** The panel's 404 page: what was asked for is not there (any more). */
export function adminNotFound(c: Context<HonoEnv>): Response {
  const tr = t(c);
  return errorPage(c, 404, tr("admin.not_found"), tr("admin.not_found_text"));
}

/** After a successful form: back to `path` (303) with a one-line notice that `noticeFrom` shows. */
export function redirectWithNotice(c: Context<HonoEnv>, path: string, notice: string): Response {
  return c.redirect(`${path}${path.includes("?") ? "&" : "?"}notice=${notice}`, 303);
}
