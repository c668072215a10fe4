import type { Context } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { EVERYONE_ROLE_ID } from "../../../../lib/roles.ts";
import type { Account } from "../../../../services/accounts/types.ts";
import { ACCOUNT_ACTION_TYPES } from "../../../../services/moderation/account-actions.ts";
import {
  type AccountHistory,
  accountHistory,
  assignableRoles,
} from "../../../../services/moderation/account-history.ts";
import { adminAccountsJson, findAdminAccount } from "../../../../services/moderation/accounts.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import { roleActorOf } from "../../../../services/moderation/roles.ts";
import type { HonoEnv } from "../../../types.ts";
import { type Translate, t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { emojifyHtml, emojifyText, timeTag } from "../../profiles/format.ts";
import { Permission, requireStaff, type Staff } from "../guard.ts";
import { adminNotFound, noticeFrom, sendAdminPage } from "../layout.ts";
import { type AdminAccountJson, acctOf, dateOrNever, isPending, lastActive, roleName, statusBadges } from "./views.ts";

/** The account of a panel page, or undefined when there is none (a 404 page then). */
export async function findPageAccount(c: Context<HonoEnv>, id: string): Promise<Account | undefined> {
  try {
    return await findAdminAccount(c.env.ctx, id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

/** The panel's 404 page. */
export const notFoundPage = adminNotFound;

/** A one-button form posting to the account's `path` (CSRF token included). */
function button(me: Staff, id: string, path: string, label: string, cls = "secondary"): SafeHtml {
  return html`<form method="post" action="/admin/accounts/${id}/${path}">
<input type="hidden" name="authenticity_token" value="${me.csrf}">
<button type="submit" class="${cls}">${label}</button>
</form>`;
}

function details(a: AdminAccountJson, tr: Translate): SafeHtml {
  const row = (label: string, value: unknown) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>\n`;
  const rows: SafeHtml[] = [
    row(tr("admin.accounts.username"), `@${a.username}`),
    row(tr("admin.accounts.domain"), a.domain ?? tr("admin.accounts.local")),
  ];
  if (a.domain === null) {
    rows.push(
      row(tr("admin.accounts.email"), a.email ?? ""),
      row(tr("admin.accounts.confirmed"), a.confirmed ? tr("admin.yes") : tr("admin.no")),
      row(tr("admin.accounts.ip"), a.ip ?? ""),
      row(
        tr("admin.accounts.ips"),
        a.ips.length === 0
          ? ""
          : html`<ul class="account-ips">${a.ips.map((x) => html`<li><code>${x.ip}</code> ${timeTag(x.used_at, tr.locale)}</li>`)}</ul>`,
      ),
      row(tr("admin.accounts.reason"), a.invite_request ?? ""),
      row(tr("admin.accounts.locale"), a.locale ?? ""),
      row(tr("admin.accounts.role"), roleName(a, tr)),
    );
  }
  rows.push(
    row(tr("admin.accounts.status"), statusBadges(a, tr)),
    row(tr("admin.accounts.signed_up"), dateOrNever(a.created_at, tr)),
    row(tr("admin.accounts.last_active"), dateOrNever(lastActive(a), tr)),
    row(tr("admin.accounts.posts"), a.account.statuses_count.toLocaleString(tr.locale)),
    row(tr("admin.accounts.followers"), a.account.followers_count.toLocaleString(tr.locale)),
    row(tr("admin.accounts.following"), a.account.following_count.toLocaleString(tr.locale)),
  );
  return html`<section class="admin-section" aria-labelledby="account-details"><h2 id="account-details">${tr("admin.accounts.details")}</h2>
<table class="admin-table account-details"><tbody>
${rows}</tbody></table></section>`;
}

async function actions(me: Staff, a: AdminAccountJson, account: Account, tr: Translate): Promise<SafeHtml> {
  const parts: SafeHtml[] = [];
  if (isPending(a)) {
    parts.push(html`<section class="admin-section pending-signup" aria-labelledby="pending-title"><h2 id="pending-title">${tr("admin.accounts.pending_title")}</h2>
<p>${tr("admin.accounts.pending_text")}</p>
<div class="admin-actions">${button(me, a.id, "approve", tr("admin.accounts.approve"), "")}${button(me, a.id, "reject", tr("admin.accounts.reject"), "danger")}</div></section>`);
  }
  const types = ACCOUNT_ACTION_TYPES.filter((type) => type !== "disable" || a.domain === null);
  const undo: SafeHtml[] = [];
  if (a.sensitized) undo.push(button(me, a.id, "unsensitive", tr("admin.accounts.unsensitive")));
  if (a.disabled) undo.push(button(me, a.id, "enable", tr("admin.accounts.enable")));
  if (a.silenced) undo.push(button(me, a.id, "unsilence", tr("admin.accounts.unsilence")));
  if (a.suspended && account.suspensionOrigin === "local") {
    undo.push(button(me, a.id, "unsuspend", tr("admin.accounts.unsuspend")));
  }
  const remoteSuspension =
    a.suspended && account.suspensionOrigin !== "local"
      ? html`<p class="muted">${tr("admin.accounts.remote_suspension")}</p>`
      : "";
  parts.push(html`<section class="admin-section" aria-labelledby="moderate-title"><h2 id="moderate-title">${tr("admin.accounts.moderate")}</h2>
<form method="post" action="/admin/accounts/${a.id}/action" class="account-action">
<input type="hidden" name="authenticity_token" value="${me.csrf}">
<label for="action-type">${tr("admin.accounts.action_type")}</label>
<select id="action-type" name="type">
${types.map((type) => html`<option value="${type}">${tr(`admin.accounts.type.${type}`)}</option>`)}
</select>
<label for="action-text">${tr("admin.accounts.warning_text")}</label>
<textarea id="action-text" name="text" rows="4" maxlength="5000"></textarea>
<label class="check"><input type="checkbox" name="send_email_notification" value="1"${a.domain === null ? html` checked` : html` disabled`}> ${tr("admin.accounts.send_email")}</label>
<button type="submit">${tr("admin.accounts.perform")}</button>
</form>
${undo.length > 0 ? html`<h3>${tr("admin.accounts.undo")}</h3><div class="admin-actions">${undo}</div>` : ""}
${remoteSuspension}
</section>`);

  if (a.suspended && account.suspensionOrigin === "local" && (await me.can(Permission.deleteUserData))) {
    parts.push(html`<section class="admin-section delete-data" aria-labelledby="delete-title"><h2 id="delete-title">${tr("admin.accounts.delete_data")}</h2>
<p>${tr("admin.accounts.delete_data_text")}</p>
<form method="post" action="/admin/accounts/${a.id}/delete">
<input type="hidden" name="authenticity_token" value="${me.csrf}">
<label class="check"><input type="checkbox" name="confirm" value="1" required> ${tr("admin.accounts.delete_confirm", { acct: acctOf(a) })}</label>
<button type="submit" class="danger">${tr("admin.accounts.delete_data")}</button>
</form></section>`);
  }
  return html`${parts}`;
}

async function roleSection(
  c: Context<HonoEnv>,
  me: Staff,
  a: AdminAccountJson,
  tr: Translate,
): Promise<SafeHtml | string> {
  if (!(await me.can(Permission.manageRoles))) return "";
  const head = html`<h2 id="role-title">${tr("admin.accounts.change_role")}</h2>`;
  if (a.domain !== null) {
    return html`<section class="admin-section" aria-labelledby="role-title">${head}<p class="muted">${tr("admin.accounts.remote_role")}</p></section>`;
  }
  const actor = await roleActorOf(c.env.ctx, moderatorOf(me.account), me.user.roleId);
  const { roles, mayChange } = await assignableRoles(c.env.ctx, actor, a.role?.id ?? EVERYONE_ROLE_ID);
  if (!mayChange) {
    return html`<section class="admin-section" aria-labelledby="role-title">${head}<p class="muted">${tr("admin.accounts.role_locked")}</p></section>`;
  }
  const current = a.role?.id ?? EVERYONE_ROLE_ID;
  return html`<section class="admin-section" aria-labelledby="role-title">${head}
<form method="post" action="/admin/accounts/${a.id}/role" class="admin-actions">
<input type="hidden" name="authenticity_token" value="${me.csrf}">
<label for="role-id">${tr("admin.accounts.role")}</label>
<select id="role-id" name="role_id">
${roles.map((r) => html`<option value="${r.id === EVERYONE_ROLE_ID ? "" : r.id}"${r.id === current ? html` selected` : ""}>${r.id === EVERYONE_ROLE_ID ? tr("admin.accounts.no_role") : r.name}</option>`)}
</select>
<button type="submit">${tr("admin.accounts.change_role")}</button>
</form></section>`;
}

function historySection(h: AccountHistory, tr: Translate): SafeHtml {
  const none = html`<p class="muted">${tr("admin.none")}</p>`;
  const warnings =
    h.warnings.length === 0
      ? none
      : html`<ul class="account-warnings">${h.warnings.map(
          (w) =>
            html`<li data-id="${w.id}"><span class="badge">${tr(
              (ACCOUNT_ACTION_TYPES as readonly string[]).includes(w.action)
                ? (`admin.accounts.type.${w.action}` as "admin.accounts.type.none")
                : "admin.accounts.type.none",
            )}</span> ${timeTag(w.createdAt, tr.locale)} <span class="muted">${tr("admin.accounts.warning_by", {
              by: w.by ?? tr("admin.accounts.command_line"),
            })}</span>${w.text ? html`<blockquote>${w.text}</blockquote>` : ""}${
              w.reportId
                ? html` <a href="/admin/reports/${w.reportId}">${tr("admin.accounts.report_link", { id: w.reportId })}</a>`
                : ""
            }</li>`,
        )}</ul>`;
  const reports = (
    list: AccountHistory["reportsAgainst"],
    key: "admin.accounts.report_by" | "admin.accounts.report_about",
  ) =>
    list.length === 0
      ? none
      : html`<ul class="account-reports">${list.map(
          (r) =>
            html`<li><a href="/admin/reports/${r.id}">${tr("admin.accounts.report_link", { id: r.id })}</a> ${tr(key, {
              acct: r.other,
            })} · ${timeTag(r.createdAt, tr.locale)} <span class="badge ${r.resolved ? "good" : "warn"}">${tr(
              r.resolved ? "admin.accounts.resolved" : "admin.accounts.unresolved",
            )}</span>${r.comment ? html`<blockquote>${r.comment}</blockquote>` : ""}</li>`,
        )}</ul>`;
  const actionsLog =
    h.actions.length === 0
      ? none
      : html`<ul class="account-log">${h.actions.map(
          (e) => html`<li data-action="${e.action}">${timeTag(e.createdAt, tr.locale)} ${e.summary}</li>`,
        )}</ul>`;
  return html`<section class="admin-section account-history" aria-labelledby="history-title"><h2 id="history-title">${tr("admin.accounts.history")}</h2>
<h3>${tr("admin.accounts.warnings")}</h3>
${warnings}
<h3>${tr("admin.accounts.reports_against")}</h3>
${reports(h.reportsAgainst, "admin.accounts.report_by")}
<h3>${tr("admin.accounts.reports_by")}</h3>
${reports(h.reportsBy, "admin.accounts.report_about")}
<h3>${tr("admin.accounts.actions_log")}</h3>
${actionsLog}
</section>`;
}

/**
 * `GET /admin/accounts/:id`, and the same page after a refused action (`error`, `status`): the
 * profile, the admin details, the actions the staff member may take, and the history.
 */
export async function accountPage(
  c: Context<HonoEnv>,
  me: Staff,
  account: Account,
  opts: { error?: string; status?: number } = {},
): Promise<Response> {
  const ctx = c.env.ctx;
  const tr = t(c);
  const [a] = (await adminAccountsJson(ctx, [account])) as unknown as AdminAccountJson[];
  const history = await accountHistory(ctx, account);
  const p = a.account;
  const acct = acctOf(a);
  // This server's own files by path: the panel may be reached under another name than BASE_URL's.
  const base = ctx.config.baseUrl.replace(/\/$/, "");
  const avatar = p.avatar_static.startsWith(`${base}/`) ? p.avatar_static.slice(base.length) : p.avatar_static;
  const header = html`<p><a href="/admin/accounts">← ${tr("admin.accounts.back")}</a></p>
<div class="admin-account-header">
<img class="avatar" src="${avatar}" alt="" width="64" height="64">
<div><h1>${emojifyText(p.display_name || a.username, p.emojis)}</h1>
<p class="muted">${acct} · <a href="${p.url}">${tr("admin.accounts.public_profile")}</a></p>
${statusBadges(a, tr)}</div></div>
${p.note ? html`<div class="note">${emojifyHtml(p.note, p.emojis)}</div>` : ""}`;
  return sendAdminPage(c, me, {
    title: tr("admin.accounts.account_title", { acct }),
    current: "/admin/accounts",
    notice: opts.error ? undefined : noticeFrom(c),
    error: opts.error,
    status: opts.status,
    body: html`${header}
${details(a, tr)}
${await actions(me, a, account, tr)}
${await roleSection(c, me, a, tr)}
${historySection(history, tr)}`,
  });
}

/** The route of `GET /admin/accounts/:id`. */
export async function accountShowPage(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireStaff(c, Permission.manageUsers);
  if (me instanceof Response) return me;
  const account = await findPageAccount(c, c.req.param("id") ?? "");
  if (!account) return notFoundPage(c);
  return accountPage(c, me, account);
}
