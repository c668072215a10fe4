/** What the Report entities are made of (a report row has these and more). */
export interface ReportView {
  id: string;
  actionTakenAt: string | null;
  category: string;
  comment: string;
  forwarded: boolean;
  createdAt: string;
  statusIds: readonly string[];
  ruleIds: readonly string[] | null;
}

/** Mastodon's Report entity (REST::ReportSerializer), as the reporter and notified staff see it. */
export function serializeReport(r: ReportView, targetAccount: Record<string, unknown>): Record<string, unknown> {
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
