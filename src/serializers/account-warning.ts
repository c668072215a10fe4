/** What the AccountWarning entity reads of a strike (its row has these and more). */
export interface AccountWarningView {
  id: string;
  action: string;
  text: string;
  statusIds: readonly string[];
  createdAt: string;
}

/**
 * Mastodon's AccountWarning entity (REST::AccountWarningSerializer), with the warned account's
 * Account JSON. Gannet has no appeals: `appeal` is always null.
 */
export function serializeAccountWarning(
  w: AccountWarningView,
  targetAccount: Record<string, unknown>,
): Record<string, unknown> {
  return {
    id: w.id,
    action: w.action,
    text: w.text,
    status_ids: [...w.statusIds],
    target_account: targetAccount,
    appeal: null,
    created_at: w.createdAt,
  };
}
