import type { AppContext } from "../../context.ts";
import type { AccountConversation } from "../../db/repositories/conversations.ts";
import { serializeConversation } from "../../serializers/conversation.ts";
import { accountsJson } from "../accounts/views.ts";
import { filterVisible, statusesJson } from "../statuses/views.ts";

/**
 * Conversation JSON for its owner, in a bounded number of queries: the other participants (the
 * owner alone for a note to oneself, as Mastodon) and the last status with the viewer's flags.
 */
export async function conversationsJson(
  ctx: AppContext,
  conversations: readonly AccountConversation[],
  viewerId: string,
): Promise<Record<string, unknown>[]> {
  const statusIds = [...new Set(conversations.map((c) => c.lastStatusId))];
  // A muted participant's last post is still shown, as in Mastodon (a block deletes the
  // conversation instead); one whose author blocks the viewer is not.
  const statuses = await filterVisible(ctx, await ctx.repos.statuses.getByIds(statusIds), viewerId, { keep: "all" });
  const statusJson = await statusesJson(ctx, statuses, viewerId);
  const statusById = new Map(statuses.map((s, i) => [s.id, statusJson[i]]));
  const participantsOf = (c: AccountConversation) =>
    c.participantAccountIds.length > 0 ? c.participantAccountIds : [c.accountId];
  const accounts = await ctx.repos.accounts.getByIds([...new Set(conversations.flatMap(participantsOf))]);
  const accountJson = await accountsJson(ctx, accounts);
  const accountById = new Map(accounts.map((a, i) => [a.id, accountJson[i]]));
  return conversations.map((c) =>
    serializeConversation(
      c,
      participantsOf(c).flatMap((id): Record<string, unknown>[] => {
        const a = accountById.get(id);
        return a === undefined ? [] : [a];
      }),
      statusById.get(c.lastStatusId) ?? null,
    ),
  );
}
