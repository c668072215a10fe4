import type { AppContext } from "../../context.ts";
import { EVERYONE_ROLE_ID, Permission, roleCan } from "../../db/repositories/roles.ts";
import { notificationCreated } from "../push/deliver.ts";
import { publishNotification } from "../streaming/publish.ts";

export const ADMIN_REPORT_JOB = "notifications.admin-report";

export interface AdminReportJob {
  reportId: string;
}

/**
 * The `notifications.admin-report` job, queued with a new report: every local user whose role
 * grants `manage_reports`, except the reporter, gets an `admin.report` notification from the
 * reporter (no status; the report is its cause, so a job that runs twice notifies once). As
 * Mastodon, staff are not told again while an older report about the same account is unresolved.
 */
export async function notifyAdminReport(ctx: AppContext, job: AdminReportJob): Promise<void> {
  if (typeof job?.reportId !== "string") return;
  const report = await ctx.repos.reports.getById(job.reportId);
  if (!report || report.actionTakenAt !== null) return;
  if (await ctx.repos.reports.hasOlderUnresolvedSiblings(report)) return;
  const roles = await ctx.repos.roles.all();
  const everyone = roles.find((r) => r.id === EVERYONE_ROLE_ID);
  const staffRoles = roles.filter((r) => roleCan(r, everyone, Permission.manageReports)).map((r) => r.id);
  const recipients = await ctx.repos.notifications.localAccountIdsWithRoles(staffRoles);
  for (const recipientId of recipients) {
    if (recipientId === report.accountId) continue;
    const now = new Date();
    const id = ctx.ids.next(now);
    const stored = await ctx.repos.notifications.insert({
      id,
      account_id: recipientId,
      from_account_id: report.accountId,
      type: "admin.report",
      status_id: null,
      activity_id: report.id,
      // Reports are never grouped (Mastodon).
      group_key: `ungrouped-${id}`,
      created_at: now.toISOString(),
    });
    await notificationCreated(ctx, {
      id,
      accountId: recipientId,
      fromAccountId: report.accountId,
      type: "admin.report",
    });
    if (stored) await publishNotification(ctx, recipientId, id);
  }
}
