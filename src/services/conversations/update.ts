import type { AppContext } from "../../context.ts";
import { participantsKey } from "../../db/repositories/conversations.ts";
import { notificationsBlocked } from "../../policies/blocks.ts";
import { policyDecision } from "../notifications/policy.ts";
import { blockMuteRelations } from "../relationships/relationships.ts";
import { publishConversation } from "../streaming/publish.ts";

/**
 * Puts a new direct status into its participants' conversations (Mastodon's
 * `AccountConversation.add_status`): the author's, read, and every mentioned local account's,
 * unread (unless they muted the thread, block or mute the author, or their notification policy
 * filters or drops the mention). Each sees the others (author and mentioned) as the participants. Called by the
 * fan-out job, and with `onlyFor` when a notification request is accepted (its private mentions
 * join the recipient's conversations then, as in Mastodon); a status deleted meanwhile, or not
 * direct, changes nothing; running twice is harmless.
 */
export async function addToConversations(ctx: AppContext, statusId: string, onlyFor?: string): Promise<void> {
  const status = await ctx.repos.statuses.getById(statusId);
  if (!status || status.deletedAt !== null || status.visibility !== "direct" || status.reblogOfId !== null) return;
  const mentioned = (await ctx.repos.statuses.mentionsOf([status.id])).get(status.id) ?? [];
  const everyone = [...new Set([status.accountId, ...mentioned])];
  const accounts = await ctx.repos.accounts.getByIds(everyone);
  const author = accounts.find((a) => a.id === status.accountId);
  const locals = accounts.filter((a) => a.domain === null && (onlyFor === undefined || a.id === onlyFor));
  const at = new Date().toISOString();
  const conversationId = status.conversationId ?? status.id;
  for (const account of locals) {
    // Mastodon adds it for a recipient along with the mention notification, which a muted
    // thread does not get, nor one who blocks the author, is blocked by it or mutes it with
    // its notifications (Mastodon's NotifyService drops the notification and the conversation),
    // nor a mention the recipient's notification policy filters or drops.
    if (account.id !== status.accountId) {
      const muted = await ctx.repos.statusInteractions.mutedConversations(account.id, [conversationId]);
      if (muted.size > 0) continue;
      if (notificationsBlocked(status.accountId, await blockMuteRelations(ctx, account.id, [status.accountId]))) {
        continue;
      }
      if (author && (await policyDecision(ctx, account.id, author, "mention", status)) !== "accept") continue;
    }
    const added = await ctx.repos.conversations.addStatus({
      newId: ctx.ids.next(),
      accountId: account.id,
      conversationId,
      participants: participantsKey(everyone.filter((id) => id !== account.id)),
      statusId: status.id,
      unread: account.id !== status.accountId,
      at,
    });
    if (added !== undefined) await publishConversation(ctx, account.id, added);
  }
  // Deleted while this ran: the delete found nothing to take out, so take it out now.
  if ((await ctx.repos.statuses.getById(status.id))?.deletedAt) await ctx.repos.conversations.removeStatus(status.id);
}
