import { type RoleView, serializeRole } from "./account.ts";

/** What Admin::Account reads of a local account's user (a user row has these and more). */
export interface AdminUserView {
  email: string;
  signUpIp: string | null;
  confirmedAt: string | null;
  disabled: boolean;
  approved: boolean;
  locale: string;
  reason: string | null;
  createdByApplicationId: string | null;
  createdAt: string;
}

/** What Admin::Account needs: the account, its Account JSON, and (local accounts) the user and role. */
export interface AdminAccountView {
  account: {
    id: string;
    username: string;
    domain: string | null;
    createdAt: string;
    suspendedAt: string | null;
    silencedAt: string | null;
    sensitizedAt: string | null;
  };
  accountJson: Record<string, unknown>;
  user?: AdminUserView;
  /** The addresses the user signed up and signed in from, most recently used first. */
  ips?: readonly { ip: string; usedAt: string }[];
  role?: RoleView;
}

/**
 * Mastodon's Admin::Account entity (REST::Admin::AccountSerializer). `ip` is the most recently
 * used address; without recorded addresses (users older than the record), the sign-up address.
 * A remote account has no user: no e-mail, addresses, locale or role. Gannet has no invites, so
 * `invited_by_account_id` never appears.
 */
export function serializeAdminAccount(v: AdminAccountView): Record<string, unknown> {
  const { account: a, user: u } = v;
  const ips =
    u === undefined
      ? []
      : v.ips !== undefined && v.ips.length > 0
        ? v.ips.map((x) => ({ ip: x.ip, used_at: x.usedAt }))
        : u.signUpIp
          ? [{ ip: u.signUpIp, used_at: u.createdAt }]
          : [];
  const out: Record<string, unknown> = {
    id: a.id,
    username: a.username,
    domain: a.domain,
    created_at: a.createdAt,
    email: u?.email ?? null,
    ip: ips[0]?.ip ?? null,
    confirmed: u !== undefined && u.confirmedAt !== null,
    suspended: a.suspendedAt !== null,
    silenced: a.silencedAt !== null,
    sensitized: a.sensitizedAt !== null,
    disabled: u?.disabled ?? false,
    approved: u?.approved ?? false,
    locale: u?.locale ?? null,
    invite_request: u?.reason ?? null,
  };
  if (u?.createdByApplicationId) out.created_by_application_id = u.createdByApplicationId;
  out.ips = ips;
  out.account = v.accountJson;
  out.role = v.role ? serializeRole(v.role) : null;
  return out;
}
