import type { Translate } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { timeTag } from "../../profiles/format.ts";

/**
 * What the accounts pages read of an Admin::Account (the admin API's JSON, from the same
 * serializer): the pages show exactly what `GET /api/v1/admin/accounts/:id` answers.
 */
export interface AdminAccountJson {
  id: string;
  username: string;
  domain: string | null;
  created_at: string;
  email: string | null;
  ip: string | null;
  confirmed: boolean;
  suspended: boolean;
  silenced: boolean;
  sensitized: boolean;
  disabled: boolean;
  approved: boolean;
  locale: string | null;
  invite_request: string | null;
  ips: { ip: string; used_at: string }[];
  account: {
    acct: string;
    display_name: string;
    note: string;
    url: string;
    avatar_static: string;
    last_status_at: string | null;
    statuses_count: number;
    followers_count: number;
    following_count: number;
    emojis: { shortcode: string; url: string; static_url: string; visible_in_picker: boolean }[];
  };
  role: { id: string; name: string } | null;
}

/** The everyone role's id: holding it means holding no role. */
const EVERYONE = "-99";

export const acctOf = (a: Pick<AdminAccountJson, "username" | "domain">): string =>
  a.domain === null ? `@${a.username}` : `@${a.username}@${a.domain}`;

/** The role's name, or "No role" for the everyone role; empty for remote accounts. */
export function roleName(a: AdminAccountJson, tr: Translate): string {
  if (a.domain !== null) return "";
  return a.role && a.role.id !== EVERYONE ? a.role.name : tr("admin.accounts.no_role");
}

/** Whether the account is a local sign-up waiting for approval. */
export const isPending = (a: AdminAccountJson): boolean => a.domain === null && !a.approved;

/** The account's state as badges: suspended, limited, sensitive, disabled, pending, unconfirmed, or active. */
export function statusBadges(a: AdminAccountJson, tr: Translate): SafeHtml {
  const out: SafeHtml[] = [];
  const badge = (cls: string, key: Parameters<Translate>[0]) =>
    out.push(html`<span class="badge ${cls}">${tr(key)}</span> `);
  if (a.suspended) badge("bad", "admin.accounts.status.suspended");
  if (a.disabled) badge("bad", "admin.accounts.status.disabled");
  if (a.silenced) badge("warn", "admin.accounts.status.silenced");
  if (a.sensitized) badge("warn", "admin.accounts.status.sensitized");
  if (isPending(a)) badge("warn", "admin.accounts.status.pending");
  if (a.domain === null && !a.confirmed) badge("warn", "admin.accounts.status.unconfirmed");
  if (out.length === 0) badge("good", "admin.accounts.status.active");
  return html`<span class="account-badges">${out}</span>`;
}

/** The latest of the last sign-in address use and the last post; undefined when neither is known. */
export function lastActive(a: AdminAccountJson): string | undefined {
  const times = [a.ips[0]?.used_at, a.account.last_status_at].filter((x): x is string => typeof x === "string");
  let best: string | undefined;
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    const ms = Date.parse(t);
    if (!Number.isNaN(ms) && ms > bestMs) {
      bestMs = ms;
      best = t;
    }
  }
  return best;
}

/** A date (no time) or "Never". */
export function dateOrNever(iso: string | undefined | null, tr: Translate): SafeHtml {
  return iso ? timeTag(iso, tr.locale, false) : html`<span class="muted">${tr("admin.accounts.never")}</span>`;
}
