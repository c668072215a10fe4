import type { Report } from "../db/repositories/reports.ts";

/** Mastodon's Report entity (REST::ReportSerializer), as the reporter and notified staff see it. */
export function serializeReport(r: Report, targetAccount: Record<string, unknown>): Record<string, unknown> {
  return {
    id: r.id,
    action_taken: r.actionTakenAt !== null,
    action_taken_at: r.actionTakenAt,
    category: r.category,
    comment: r.comment,
    forwarded: r.forwarded,
    created_at: r.createdAt,
    status_ids: r.statusIds,
    rule_ids: r.ruleIds,
    target_account: targetAccount,
  };
}
