/** What the Conversation entity takes of an account's conversation (its row has more). */
export interface ConversationView {
  id: string;
  unread: boolean;
}

/** Mastodon's Conversation entity. */
export function serializeConversation(
  c: ConversationView,
  accounts: Record<string, unknown>[],
  lastStatus: Record<string, unknown> | null,
): Record<string, unknown> {
  return { id: c.id, unread: c.unread, accounts, last_status: lastStatus };
}
