import type { AppContext } from "../../context.ts";
import type { AccountConversation } from "../../db/repositories/conversations.ts";
import type { IdWindow } from "../../lib/pagination.ts";

/** One page of the account's conversations, paged by their last status as Mastodon does, latest first. */
export function conversationsPage(
  ctx: AppContext,
  accountId: string,
  window: IdWindow,
): Promise<AccountConversation[]> {
  return ctx.repos.conversations.page(accountId, window);
}

/** Removes a conversation from the account's list (its statuses stay); false when it had none of that id. */
export function removeConversation(ctx: AppContext, accountId: string, id: string): Promise<boolean> {
  return ctx.repos.conversations.delete(accountId, id);
}

/** Marks one of the account's conversations read or unread; undefined when it has none of that id. */
export async function markConversation(
  ctx: AppContext,
  accountId: string,
  id: string,
  unread: boolean,
): Promise<AccountConversation | undefined> {
  if (!(await ctx.repos.conversations.get(accountId, id))) return undefined;
  await ctx.repos.conversations.setUnread(accountId, id, unread, new Date().toISOString());
  return ctx.repos.conversations.get(accountId, id);
}
