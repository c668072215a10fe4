import type { Notification } from "../db/repositories/notifications.ts";

/** Mastodon's Notification entity; `status` only for the types about a post. */
export function serializeNotification(
  n: Notification,
  account: Record<string, unknown>,
  status: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: n.id,
    type: n.type,
    group_key: n.groupKey,
    created_at: n.createdAt,
    account,
  };
  if (status !== undefined) out.status = status;
  return out;
}
