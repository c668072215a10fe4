import type { Context } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import { EVERYONE_ROLE_ID } from "../../../../lib/roles.ts";
import {
  adminAccountsJson,
  type FilterParams,
  listAdminAccounts,
  v2Query,
} from "../../../../services/moderation/accounts.ts";
import { listRoles } from "../../../../services/moderation/roles.ts";
import type { HonoEnv } from "../../../types.ts";
import { type MessageKey, t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { Permission, requireStaff } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { type AdminAccountJson, dateOrNever, lastActive, roleName, statusBadges } from "./views.ts";

const PAGE_SIZE = 40;

const STATUSES = ["active", "pending", "disabled", "silenced", "suspended", "sensitized"] as const;

/** The text filters of the v2 admin accounts API, with their labels. */
const TEXT_FILTERS: ReadonlyArray<readonly [string, MessageKey]> = [
  ["username", "admin.accounts.username"],
  ["display_name", "admin.accounts.display_name"],
  ["by_domain", "admin.accounts.domain"],
  ["email", "admin.accounts.email"],
  ["ip", "admin.accounts.ip"],
];

/** The listing's filters from the page's query, named as `GET /api/v2/admin/accounts` names them. */
function filtersOf(c: Context<HonoEnv>): FilterParams {
  const out: FilterParams = {};
  for (const key of ["origin", "status", "permissions", ...TEXT_FILTERS.map(([k]) => k)]) {
    const v = c.req.query(key);
    if (v !== undefined) out[key] = v.slice(0, 500);
  }
  const roles = [...(c.req.queries("role_ids[]") ?? []), ...(c.req.queries("role_ids") ?? [])];
  if (roles.length > 0) out.role_ids = roles.slice(0, 20);
  return out;
}

const selected = (on: boolean) => (on ? html` selected` : "");

/** `GET /admin/accounts`: the accounts, filtered as the v2 admin accounts API, newest first. */
export async function accountListPage(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireStaff(c, Permission.manageUsers);
  if (me instanceof Response) return me;
  const ctx = c.env.ctx;
  const tr = t(c);
  const filters = filtersOf(c);
  const maxIdRaw = c.req.query("max_id");
  const maxId = maxIdRaw && isId(maxIdRaw) ? maxIdRaw : undefined;
  let accounts: AdminAccountJson[] = [];
  let error: string | undefined;
  let status: number | undefined;
  try {
    const found = await listAdminAccounts(ctx, v2Query(filters), { maxId, limit: PAGE_SIZE });
    accounts = (await adminAccountsJson(ctx, found)) as unknown as AdminAccountJson[];
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e;
    error = tr("admin.accounts.bad_filter", { message: e.message });
    status = e.status;
  }
  const roles = await listRoles(ctx);
  const value = (k: string) => {
    const v = filters[k];
    return typeof v === "string" ? v : "";
  };
  const roleIds = new Set([filters.role_ids ?? []].flat());

  const form = html`<form method="get" action="/admin/accounts" class="admin-filters" aria-label="${tr("admin.accounts.filters")}">
<label>${tr("admin.accounts.origin")}<select name="origin">
<option value="">${tr("admin.all")}</option>
<option value="local"${selected(value("origin") === "local")}>${tr("admin.accounts.origin.local")}</option>
<option value="remote"${selected(value("origin") === "remote")}>${tr("admin.accounts.origin.remote")}</option>
</select></label>
<label>${tr("admin.accounts.status")}<select name="status">
<option value="">${tr("admin.all")}</option>
${STATUSES.map((s) => html`<option value="${s}"${selected(value("status") === s)}>${tr(`admin.accounts.status.${s}`)}</option>`)}
</select></label>
<label>${tr("admin.accounts.role")}<select name="role_ids[]">
<option value="">${tr("admin.accounts.any_role")}</option>
${roles
  // The everyone role is everybody's: the API's role filter names the other roles only.
  .filter((r) => r.id !== EVERYONE_ROLE_ID)
  .map((r) => html`<option value="${r.id}"${selected(roleIds.has(r.id))}>${r.name}</option>`)}
</select></label>
<label class="check"><input type="checkbox" name="permissions" value="staff"${value("permissions") === "staff" ? html` checked` : ""}> ${tr("admin.accounts.staff_only")}</label>
${TEXT_FILTERS.map(([k, label]) => html`<label>${tr(label)}<input type="search" name="${k}" value="${value(k)}" maxlength="500"></label>`)}
<button type="submit">${tr("admin.search")}</button>
<a href="/admin/accounts">${tr("admin.reset")}</a>
</form>`;

  const rows: SafeHtml[] = accounts.map(
    (a) => html`<tr data-id="${a.id}">
<td><a href="/admin/accounts/${a.id}">@${a.username}</a>${a.account.display_name ? html`<br><span class="muted">${a.account.display_name}</span>` : ""}</td>
<td>${a.domain ?? html`<span class="muted">${tr("admin.accounts.local")}</span>`}</td>
<td>${roleName(a, tr)}</td>
<td>${statusBadges(a, tr)}</td>
<td>${dateOrNever(a.created_at, tr)}</td>
<td>${dateOrNever(lastActive(a), tr)}</td>
</tr>`,
  );
  const table =
    accounts.length === 0
      ? html`<p class="muted" id="no-accounts">${tr("admin.accounts.none_found")}</p>`
      : html`<table class="admin-table accounts-table">
<thead><tr><th scope="col">${tr("admin.accounts.username")}</th><th scope="col">${tr("admin.accounts.domain")}</th><th scope="col">${tr("admin.accounts.role")}</th><th scope="col">${tr("admin.accounts.status")}</th><th scope="col">${tr("admin.accounts.signed_up")}</th><th scope="col">${tr("admin.accounts.last_active")}</th></tr></thead>
<tbody>
${rows}</tbody>
</table>`;

  let older: SafeHtml | string = "";
  const last = accounts.at(-1);
  if (accounts.length >= PAGE_SIZE && last) {
    const q = new URLSearchParams();
    for (const [k, v] of new URL(c.req.url).searchParams) if (k !== "max_id" && k !== "notice") q.append(k, v);
    q.set("max_id", last.id);
    older = html`<nav class="pagination"><a href="/admin/accounts?${q.toString()}" rel="next">${tr("admin.older")}</a></nav>`;
  }

  return sendAdminPage(c, me, {
    title: tr("admin.accounts.title"),
    current: "/admin/accounts",
    notice: noticeFrom(c),
    error,
    status,
    body: html`<h1>${tr("admin.accounts.title")}</h1>
${form}
${table}
${older}`,
  });
}
