import { type RoleView, serializeRole } from "./account.ts";

/** A role as the admin roles API shows it: Mastodon's Role entity plus its `position` (a Gannet extension). */
export function serializeAdminRole(role: RoleView & { position: number }): Record<string, unknown> {
  return { ...serializeRole(role), position: role.position };
}

/** What an action log entry shows: the entry and, for a staff member, their Account JSON. */
export interface ActionLogView {
  entry: {
    id: string;
    action: string;
    targetType: string;
    targetId: string | null;
    humanIdentifier: string | null;
    summary: string;
    createdAt: string;
  };
  /** Null for the command line, or when the account is gone. */
  account: Record<string, unknown> | null;
}

/** One entry of `GET /api/v1/admin/action_logs` (a Gannet extension shaped after Mastodon's Admin::ActionLog). */
export function serializeActionLog(v: ActionLogView): Record<string, unknown> {
  return {
    id: v.entry.id,
    action: v.entry.action,
    target_type: v.entry.targetType,
    target_id: v.entry.targetId,
    human_identifier: v.entry.humanIdentifier,
    summary: v.entry.summary,
    account: v.account,
    created_at: v.entry.createdAt,
  };
}
