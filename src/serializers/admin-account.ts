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
  role?: RoleView;
}

/**
 * Mastodon's Admin::Account entity (REST::Admin::AccountSerializer). Only the sign-up address is
 * known of a user's IPs. A remote account has no user: no e-mail, locale or role.
 */
export function serializeAdminAccount(v: AdminAccountView): Record<string, unknown> {
  const { account: a, user: u } = v;
  const out: Record<string, unknown> = {
    id: a.id,
    username: a.username,
    domain: a.domain,
    created_at: a.createdAt,
    email: u?.email ?? null,
    ip: u?.signUpIp ?? null,
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
  out.ips = u?.signUpIp ? [{ ip: u.signUpIp, used_at: u.createdAt }] : [];
  out.account = v.accountJson;
  out.role = v.role ? serializeRole(v.role) : null;
  return out;
}
