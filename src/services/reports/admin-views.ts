import type { AppContext } from "../../context.ts";
import type { Report } from "../../db/repositories/reports.ts";
import { serializeAdminReport } from "../../serializers/admin-report.ts";
import { serializeRule } from "../../serializers/instance-texts.ts";
import { adminAccountsJsonById } from "../moderation/accounts.ts";
import { statusesJson } from "../statuses/views.ts";

const unique = (xs: Iterable<string | null>): string[] => [...new Set([...xs].filter((x): x is string => x !== null))];

const present = <T>(xs: (T | undefined)[]): T[] => xs.filter((x): x is T => x !== undefined);

/**
 * Admin::Report JSON for reports, in order, in a bounded number of queries: the four accounts as
 * Admin::Account, the reported statuses (live ones, whatever their visibility: staff see them
 * all) and the rules named that still exist. A report whose reporter or target is gone is left out.
 */
export async function adminReportsJson(
  ctx: AppContext,
  reports: readonly Report[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  const accountIds = unique(
    reports.flatMap((r) => [r.accountId, r.targetAccountId, r.assignedAccountId, r.actionTakenByAccountId]),
  );
  const accounts = await adminAccountsJsonById(ctx, await ctx.repos.accounts.getByIds(accountIds));
  const statuses = (await ctx.repos.statuses.getByIds(unique(reports.flatMap((r) => r.statusIds)))).filter(
    (s) => s.deletedAt === null,
  );
  // A boost is shown only while the boosted post exists.
  const originals = new Set(
    (await ctx.repos.statuses.getByIds(unique(statuses.map((s) => s.reblogOfId))))
      .filter((s) => s.deletedAt === null)
      .map((s) => s.id),
  );
  const shown = statuses.filter((s) => s.reblogOfId === null || originals.has(s.reblogOfId));
  const statusJson = await statusesJson(ctx, shown, viewerId);
  const statusById = new Map(shown.map((s, i) => [s.id, statusJson[i]]));
  const rules = new Map((await ctx.repos.settings.rules()).map((r) => [r.id, serializeRule(r)]));
  return reports.flatMap((r) => {
    const account = accounts.get(r.accountId);
    const targetAccount = accounts.get(r.targetAccountId);
    if (account === undefined || targetAccount === undefined) return [];
    const optionalAccount = (id: string | null) => (id === null ? null : (accounts.get(id) ?? null));
    return [
      serializeAdminReport({
        report: r,
        account,
        targetAccount,
        assignedAccount: optionalAccount(r.assignedAccountId),
        actionTakenByAccount: optionalAccount(r.actionTakenByAccountId),
        statuses: present(r.statusIds.map((id) => statusById.get(id))),
        rules: present((r.ruleIds ?? []).map((id) => rules.get(id))),
      }),
    ];
  });
}
