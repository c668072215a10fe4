import type { ReportView } from "./report.ts";

/** What Admin::Report needs besides the row, rendered by the caller. */
export interface AdminReportView {
  report: ReportView & { updatedAt: string };
  account: Record<string, unknown>;
  targetAccount: Record<string, unknown>;
  assignedAccount: Record<string, unknown> | null;
  actionTakenByAccount: Record<string, unknown> | null;
  statuses: Record<string, unknown>[];
  rules: Record<string, unknown>[];
}

/** Mastodon's Admin::Report entity (REST::Admin::ReportSerializer). */
export function serializeAdminReport(v: AdminReportView): Record<string, unknown> {
  const r = v.report;
  return {
    id: r.id,
    action_taken: r.actionTakenAt !== null,
    action_taken_at: r.actionTakenAt,
    category: r.category,
    comment: r.comment,
    forwarded: r.forwarded,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    account: v.account,
    target_account: v.targetAccount,
    assigned_account: v.assignedAccount,
    action_taken_by_account: v.actionTakenByAccount,
    statuses: v.statuses,
    rules: v.rules,
  };
}
