import type { AppContext } from "../../context.ts";
import type { Report, ReportCategory, ReportFilter, ReportPatch } from "../../db/repositories/reports.ts";
import { notFound, unprocessable } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { logAction, type Moderator } from "../moderation/action-log.ts";

/** A page of reports for the admin list (Mastodon's ReportFilter: unresolved ones unless `resolved` is given). */
export function listReports(ctx: AppContext, filter: ReportFilter, window: IdWindow): Promise<Report[]> {
  return ctx.repos.reports.page(filter, window);
}

/** The report, or a 404. */
export async function findReport(ctx: AppContext, id: string): Promise<Report> {
  const report = isId(id) ? await ctx.repos.reports.getById(id) : undefined;
  if (!report) throw notFound();
  return report;
}

/** One logged change (Mastodon's action names on the `Report`), with its entry in the same transaction. */
interface Logged {
  by: Moderator;
  action: "update" | "assigned_to_self" | "unassigned" | "resolve" | "reopen";
  summary: string;
}

async function patched(ctx: AppContext, report: Report, patch: ReportPatch, log: Logged): Promise<Report> {
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.reports.update(report.id, patch, new Date().toISOString(), trx);
    await logAction(
      ctx,
      log.by,
      {
        action: log.action,
        targetType: "Report",
        targetId: report.id,
        humanIdentifier: `report #${report.id}`,
        summary: `${log.summary} report #${report.id}`,
      },
      trx,
    );
  });
  return findReport(ctx, report.id);
}

/** The acting staff member's account id (reports are only worked on by staff with an account). */
function actorId(by: Moderator): string {
  if (by.accountId === null) throw new Error("a report is assigned or resolved by a staff account");
  return by.accountId;
}

/**
 * Changes a report's category and rules (`PUT /api/v1/admin/reports/:id`), as Mastodon validates
 * them: rules only for `violation`, and only existing ones. Moving a report out of `violation`
 * without naming rules drops its rules.
 */
export async function updateReport(
  ctx: AppContext,
  report: Report,
  input: { category?: ReportCategory; ruleIds?: readonly string[] },
  by: Moderator,
): Promise<Report> {
  const category = input.category ?? report.category;
  const patch: ReportPatch = {};
  if (input.category !== undefined) patch.category = input.category;
  if (category === "violation") {
    if (input.ruleIds !== undefined) {
      const wanted = [...new Set(input.ruleIds)];
      const known = new Set((await ctx.repos.settings.rules()).map((r) => r.id));
      if (!wanted.every((id) => known.has(id))) {
        throw unprocessable("Validation failed: Rule ids does not reference valid rules");
      }
      patch.ruleIds = wanted;
    }
  } else {
    if (input.ruleIds !== undefined && input.ruleIds.length > 0) {
      throw unprocessable("Validation failed: Rule ids must be blank");
    }
    if (report.ruleIds !== null) patch.ruleIds = null;
  }
  return patched(ctx, report, patch, { by, action: "update", summary: "changed" });
}

export const assignToSelf = (ctx: AppContext, report: Report, by: Moderator) =>
  patched(ctx, report, { assignedAccountId: actorId(by) }, { by, action: "assigned_to_self", summary: "took" });

export const unassign = (ctx: AppContext, report: Report, by: Moderator) =>
  patched(ctx, report, { assignedAccountId: null }, { by, action: "unassigned", summary: "left" });

export const resolve = (ctx: AppContext, report: Report, by: Moderator) =>
  patched(
    ctx,
    report,
    { actionTakenAt: new Date().toISOString(), actionTakenByAccountId: actorId(by) },
    { by, action: "resolve", summary: "resolved" },
  );

export const reopen = (ctx: AppContext, report: Report, by: Moderator) =>
  patched(
    ctx,
    report,
    { actionTakenAt: null, actionTakenByAccountId: null },
    { by, action: "reopen", summary: "reopened" },
  );
