import type { AppContext } from "../../context.ts";
import type { Report } from "../../db/repositories/reports.ts";
import { serializeReport } from "../../serializers/report.ts";
import { accountsJson } from "../accounts/views.ts";

/** Report JSON for each report whose target account still exists, in order, in a fixed number of queries. */
export async function reportsJson(ctx: AppContext, reports: readonly Report[]): Promise<Record<string, unknown>[]> {
  const accounts = await ctx.repos.accounts.getByIds([...new Set(reports.map((r) => r.targetAccountId))]);
  const json = await accountsJson(ctx, accounts);
  const byId = new Map(accounts.map((a, i) => [a.id, json[i]]));
  return reports.flatMap((r) => {
    const target = byId.get(r.targetAccountId);
    return target === undefined ? [] : [serializeReport(r, target)];
  });
}

/** Report JSON by report id, for the `admin.report` notifications among `reportIds`. */
export async function reportsJsonById(
  ctx: AppContext,
  reportIds: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const reports = await ctx.repos.reports.getByIds([...new Set(reportIds)]);
  const json = await reportsJson(ctx, reports);
  return new Map(json.map((j) => [j.id as string, j]));
}
