import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { AdminAccountFilter, AdminAccountStatus } from "../../db/repositories/admin-accounts.ts";
import { Permission } from "../../db/repositories/roles.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { addressMatcher, parseRange } from "../../lib/net/address-policy.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";
import { serializeAdminAccount } from "../../serializers/admin-account.ts";
import { accountsJson } from "../accounts/views.ts";

export type { AdminAccountFilter, AdminAccountStatus };

/** Admin::Account JSON by account id, for many accounts, in a bounded number of queries. */
export async function adminAccountsJsonById(
  ctx: AppContext,
  accounts: readonly Account[],
): Promise<Map<string, Record<string, unknown>>> {
  const json = await accountsJson(ctx, accounts);
  const users = new Map(
    (await ctx.repos.users.getByAccountIds(accounts.filter((a) => a.domain === null).map((a) => a.id))).map((u) => [
      u.accountId,
      u,
    ]),
  );
  const ips = await ctx.repos.adminAccounts.ipsOf([...users.values()].map((u) => u.id));
  const out = new Map<string, Record<string, unknown>>();
  for (const [i, account] of accounts.entries()) {
    const user = users.get(account.id);
    const role = user ? await ctx.roles.get(user.roleId) : undefined;
    out.set(
      account.id,
      serializeAdminAccount({ account, accountJson: json[i], user, ips: user ? ips.get(user.id) : undefined, role }),
    );
  }
  return out;
}

/** Admin::Account JSON for accounts, in order. */
export async function adminAccountsJson(
  ctx: AppContext,
  accounts: readonly Account[],
): Promise<Record<string, unknown>[]> {
  const byId = await adminAccountsJsonById(ctx, accounts);
  return accounts.map((a) => byId.get(a.id) as Record<string, unknown>);
}

/**
 * Any account by id, as Mastodon's `Account.find`: local or remote, suspended, or deleted by its
 * local user (the row stays in Mastodon too); 404 otherwise, and for a remote account its server
 * deleted (Mastodon destroys those).
 */
export async function findAdminAccount(ctx: AppContext, id: string): Promise<Account> {
  const account = isId(id) ? await ctx.repos.accounts.getById(id) : undefined;
  if (!account || (account.domain !== null && isAccountDeleted(account))) throw notFound();
  return account;
}

/** The Admin::Account JSON of one account; 404 when there is no such account. */
export async function adminAccountJson(ctx: AppContext, accountId: string): Promise<Record<string, unknown>> {
  const [json] = await adminAccountsJson(ctx, [await findAdminAccount(ctx, accountId)]);
  return json;
}

/** Request parameters as the routes read them: strings, or arrays of strings (`role_ids[]`). */
export type FilterParams = Record<string, string | string[] | undefined>;

/** A parameter's text, trimmed; undefined when absent or blank (Rails' `present?`). */
function present(params: FilterParams, key: string): string | undefined {
  const v = params[key];
  const s = Array.isArray(v) ? v.join(",") : v;
  const t = s?.trim();
  return t === undefined || t === "" ? undefined : t;
}

/** What a listing asks for, before addresses and staff roles are looked up. */
export interface AccountQuery {
  origin?: "local" | "remote";
  status?: AdminAccountStatus;
  staff?: boolean;
  roleIds?: string[];
  invitedBy?: string;
  username?: string;
  displayName?: string;
  byDomain?: string;
  email?: string;
  ip?: string;
}

const STATUSES: readonly AdminAccountStatus[] = [
  "active",
  "pending",
  "disabled",
  "silenced",
  "suspended",
  "sensitized",
];

function textFilters(
  params: FilterParams,
): Pick<AccountQuery, "username" | "displayName" | "byDomain" | "email" | "ip"> {
  return {
    username: present(params, "username"),
    displayName: present(params, "display_name"),
    byDomain: present(params, "by_domain"),
    email: present(params, "email"),
    ip: present(params, "ip"),
  };
}

/**
 * `GET /api/v1/admin/accounts`'s older flags, translated as Mastodon does: local accounts unless
 * `remote`, active ones unless a status flag is given (the last of `active`, `pending`,
 * `disabled`, `silenced`, `suspended`, `sensitized` wins), `staff` for staff roles. A flag counts
 * when it has any value. (`sensitized` is ignored by Mastodon's v1; Gannet honours it.)
 */
export function v1Query(params: FilterParams): AccountQuery {
  let status: AdminAccountStatus = "active";
  for (const s of STATUSES) if (present(params, s) !== undefined) status = s;
  return {
    origin: present(params, "remote") !== undefined ? "remote" : "local",
    status,
    staff: present(params, "staff") !== undefined,
    ...textFilters(params),
  };
}

/**
 * `GET /api/v2/admin/accounts`: no defaults; an unknown `origin` or `status` is a 400 (Mastodon's
 * "Unknown origin: ..."), `permissions=staff` replaces `role_ids[]`, `invited_by` names nobody
 * (Gannet has no invites).
 */
export function v2Query(params: FilterParams): AccountQuery {
  const origin = present(params, "origin");
  if (origin !== undefined && origin !== "local" && origin !== "remote") {
    throw new ApiError(400, `Unknown origin: ${origin}`);
  }
  const status = present(params, "status");
  if (status !== undefined && !STATUSES.includes(status as AdminAccountStatus)) {
    throw new ApiError(400, `Unknown status: ${status}`);
  }
  const rawRoles = params.role_ids;
  const roleIds = (Array.isArray(rawRoles) ? rawRoles : rawRoles === undefined ? [] : [rawRoles])
    .map((r) => r.trim())
    .filter((r) => r !== "");
  return {
    origin: origin as AccountQuery["origin"],
    status: status as AdminAccountStatus | undefined,
    staff: present(params, "permissions") === "staff",
    roleIds: roleIds.length > 0 ? roleIds : undefined,
    invitedBy: present(params, "invited_by"),
    ...textFilters(params),
  };
}

/** The ids of the roles that count as staff: those that can manage reports (Mastodon's `staff`). */
async function staffRoleIds(ctx: AppContext): Promise<string[]> {
  const roles = await ctx.repos.roles.all();
  const ids: string[] = [];
  for (const r of roles) if (await ctx.roles.can(r.id, Permission.manageReports)) ids.push(r.id);
  return ids;
}

/** Users who signed up or in from `ip`, an address or a CIDR range; undefined when it is neither. */
async function usersFromAddress(ctx: AppContext, ip: string): Promise<string[] | undefined> {
  if (!parseRange(ip)) return undefined;
  const matches = addressMatcher([ip]);
  const ips = (await ctx.repos.adminAccounts.distinctIps()).filter((a) => matches(a));
  return ctx.repos.adminAccounts.userIdsWithIps(ips);
}

/** One page of accounts for a listing, newest first (Mastodon orders the admin lists by id). */
export async function listAdminAccounts(ctx: AppContext, q: AccountQuery, window: IdWindow): Promise<Account[]> {
  const filter: AdminAccountFilter = {
    origin: q.origin,
    status: q.status,
    username: q.username,
    displayName: q.displayName,
    byDomain: q.byDomain,
    email: q.email,
  };
  if (q.staff) filter.roleIds = await staffRoleIds(ctx);
  else if (q.roleIds !== undefined) filter.roleIds = q.roleIds.filter((id) => isId(id));
  // Gannet has no invites: whoever `invited_by` names invited nobody.
  if (q.invitedBy !== undefined) filter.nothing = true;
  if (q.ip !== undefined) {
    const users = await usersFromAddress(ctx, q.ip);
    if (users === undefined) filter.nothing = true;
    else filter.ipUserIds = users;
  }
  const ids = await ctx.repos.adminAccounts.pageIds(filter, window);
  const accounts = new Map((await ctx.repos.accounts.getByIds(ids)).map((a) => [a.id, a]));
  return ids.map((id) => accounts.get(id)).filter((a): a is Account => a !== undefined);
}
