import type { AccountConversation } from "../db/repositories/conversations.ts";

/** Mastodon's Conversation entity. */
export function serializeConversation(
  c: AccountConversation,
  accounts: Record<string, unknown>[],
  lastStatus: Record<string, unknown> | null,
): Record<string, unknown> {
  return { id: c.id, unread: c.unread, accounts, last_status: lastStatus };
}
