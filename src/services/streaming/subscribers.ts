import type { AppContext } from "../../context.ts";
import { sha256 } from "../../lib/crypto.ts";
import { userLoginProblem } from "../../policies/accounts.ts";
import { conversationsJson } from "../conversations/views.ts";
import { notificationsJson } from "../notifications/views.ts";

/** What the streaming server needs to know of the data behind its connections and events. */

/** A user token's owner, when it may stream: undefined for an unknown, revoked or app token, or a user who cannot sign in. */
export async function streamingTokenOwner(
  ctx: AppContext,
  raw: string,
): Promise<{ accountId: string; roleId: string; scopes: readonly string[]; tokenId: string } | undefined> {
  const owner = await ctx.repos.auth.getTokenOwner(sha256(raw));
  if (!owner || owner.token.revokedAt !== null || !owner.user || !owner.account) return undefined;
  if (userLoginProblem(owner.user, owner.account) !== null) return undefined;
  return {
    accountId: owner.account.id,
    roleId: owner.user.roleId,
    scopes: owner.token.scopes,
    tokenId: owner.token.id,
  };
}

/** The account a list belongs to (only its owner may stream it). */
export function listOwner(ctx: AppContext, listId: string): Promise<string | undefined> {
  return ctx.repos.streaming.listOwner(listId);
}

/** Which of these accounts have a filter in force at `now` (ISO time), asked in a few queries for many. */
export function accountsWithFilters(ctx: AppContext, accountIds: readonly string[], now: string): Promise<Set<string>> {
  return ctx.repos.streaming.accountsWithFilters(accountIds, now);
}

/** A notification as its owner's stream sends it; undefined when it is gone or filtered. */
export async function streamedNotification(
  ctx: AppContext,
  accountId: string,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const n = await ctx.repos.notifications.get(accountId, id);
  if (!n || n.filtered) return undefined;
  const [json] = await notificationsJson(ctx, [n], accountId);
  return json;
}

/** A conversation as its owner's stream sends it; undefined when it is gone. */
export async function streamedConversation(
  ctx: AppContext,
  accountId: string,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const c = await ctx.repos.conversations.get(accountId, id);
  if (!c) return undefined;
  const [json] = await conversationsJson(ctx, [c], accountId);
  return json;
}
