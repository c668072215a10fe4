import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Role } from "../../db/repositories/roles.ts";
import { EVERYONE_ROLE_ID } from "../../lib/roles.ts";
import { listReports } from "../reports/admin.ts";
import { acctOf } from "./account-actions.ts";
import { type ActionLogEntry, actionLogPage } from "./action-log.ts";
import { listRoles, outranks, type RoleActor } from "./roles.ts";
import type { AccountWarning } from "./warnings.ts";

export type { AccountWarning, ActionLogEntry, Role };

/** One report in an account's history, with the other party named. */
export interface HistoryReport {
  id: string;
  /** The reporter (reports against the account) or the reported account (reports it filed). */
  other: string;
  category: string;
  comment: string;
  resolved: boolean;
  createdAt: string;
}

/** A strike against the account, with the moderator's handle (null: the `gannet` command). */
export interface HistoryWarning extends AccountWarning {
  by: string | null;
}

/** What the moderation panel shows of an account's past: strikes, reports, logged actions. */
export interface AccountHistory {
  warnings: HistoryWarning[];
  reportsAgainst: HistoryReport[];
  reportsBy: HistoryReport[];
  actions: ActionLogEntry[];
}

const LIMIT = 50;

/**
 * The moderation history of an account, newest first in each part (at most 50 of each): the
 * warnings given to it, the reports against it and those it filed, and the action log's entries
 * whose target is the account or (local accounts) its user.
 */
export async function accountHistory(ctx: AppContext, account: Account): Promise<AccountHistory> {
  const rawWarnings = await ctx.repos.accountWarnings.ofTarget(account.id, LIMIT);
  const against = await listReports(ctx, { targetAccountId: account.id }, { limit: LIMIT });
  const by = await listReports(ctx, { accountId: account.id }, { limit: LIMIT });
  const otherIds = new Set<string>();
  for (const r of against) otherIds.add(r.accountId);
  for (const r of by) otherIds.add(r.targetAccountId);
  for (const w of rawWarnings) if (w.accountId !== null) otherIds.add(w.accountId);
  const names = new Map((await ctx.repos.accounts.getByIds([...otherIds])).map((a) => [a.id, acctOf(a)]));
  const name = (id: string) => names.get(id) ?? `#${id}`;
  const report = (r: (typeof against)[number], other: string): HistoryReport => ({
    id: r.id,
    other,
    category: r.category,
    comment: r.comment,
    resolved: r.actionTakenAt !== null,
    createdAt: r.createdAt,
  });

  const actions = await actionLogPage(ctx, { targetType: "Account", targetId: account.id }, { limit: LIMIT });
  if (account.domain === null) {
    const user = await ctx.repos.users.getByAccountId(account.id);
    if (user) actions.push(...(await actionLogPage(ctx, { targetType: "User", targetId: user.id }, { limit: LIMIT })));
  }
  const warningIds = rawWarnings.map((w) => w.id);
  for (const id of warningIds.slice(0, 10)) {
    actions.push(...(await actionLogPage(ctx, { targetType: "AccountWarning", targetId: id }, { limit: 5 })));
  }
  actions.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0));

  return {
    warnings: rawWarnings.map((w) => ({ ...w, by: w.accountId === null ? null : name(w.accountId) })),
    reportsAgainst: against.map((r) => report(r, name(r.accountId))),
    reportsBy: by.map((r) => report(r, name(r.targetAccountId))),
    actions: actions.slice(0, LIMIT),
  };
}

/**
 * The roles `actor` may hand out (those ranked below their own; the everyone role, meaning no
 * role, always), lowest first, and whether they may change `targetRoleId`'s holder at all.
 */
export async function assignableRoles(
  ctx: AppContext,
  actor: RoleActor,
  targetRoleId: string | undefined,
): Promise<{ roles: Role[]; mayChange: boolean }> {
  const all = await listRoles(ctx);
  const roles = all.filter((r) => r.id === EVERYONE_ROLE_ID || outranks(actor, r));
  const current = all.find((r) => r.id === targetRoleId);
  const mayChange =
    targetRoleId !== undefined &&
    targetRoleId !== actor.role?.id &&
    (current === undefined || outranks(actor, current));
  return { roles, mayChange };
}
