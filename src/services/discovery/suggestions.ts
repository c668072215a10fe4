import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import { accountsJson } from "../accounts/views.ts";

/** Where a suggestion comes from (Mastodon's `sources`). */
export type SuggestionSource = "friends_of_friends" | "most_followed";

export interface Suggestion {
  account: Account;
  sources: SuggestionSource[];
}

/**
 * Accounts to follow, as Mastodon's AccountSuggestions: accounts followed by those the caller
 * follows (most shared first), then this server's most followed accounts. Only discoverable
 * accounts; never the caller, accounts it follows, blocks, mutes or is blocked by, nor those it
 * dismissed. An account found by both sources is listed once, with both.
 */
export async function suggestions(
  ctx: AppContext,
  viewerId: string,
  limit: number,
  offset: number,
): Promise<Suggestion[]> {
  const now = new Date().toISOString();
  const wanted = limit + offset;
  const [fof, popular] = await Promise.all([
    ctx.repos.discovery.friendsOfFriends(viewerId, wanted, now),
    ctx.repos.discovery.mostFollowedLocal(viewerId, wanted, now),
  ]);
  const sources = new Map<string, SuggestionSource[]>();
  for (const id of fof) sources.set(id, ["friends_of_friends"]);
  for (const id of popular) {
    const s = sources.get(id);
    if (s) s.push("most_followed");
    else sources.set(id, ["most_followed"]);
  }
  const ids = [...sources.keys()].slice(offset, offset + limit);
  const found = new Map((await ctx.repos.accounts.getByIds(ids)).map((a) => [a.id, a]));
  return ids.flatMap((id) => {
    const account = found.get(id);
    return account ? [{ account, sources: sources.get(id) ?? [] }] : [];
  });
}

/** Mastodon's deprecated single `source` for a suggestion's first source. */
function legacySource(s: SuggestionSource): string {
  return s === "most_followed" ? "global" : "past_interactions";
}

/** v2 Suggestion entities. */
export async function suggestionsJson(
  ctx: AppContext,
  list: readonly Suggestion[],
): Promise<Record<string, unknown>[]> {
  const accounts = await accountsJson(
    ctx,
    list.map((s) => s.account),
  );
  return list.map((s, i) => ({ source: legacySource(s.sources[0]), sources: s.sources, account: accounts[i] }));
}

/**
 * `DELETE /api/v1/suggestions/:account_id`: that account is never suggested to the caller again.
 * As Mastodon, an unknown account is answered the same way, with nothing stored.
 */
export async function dismissSuggestion(ctx: AppContext, viewerId: string, targetId: string): Promise<void> {
  const [target] = await ctx.repos.accounts.getByIds([targetId]);
  if (!target) return;
  await ctx.repos.discovery.dismiss({
    id: ctx.ids.next(),
    account_id: viewerId,
    target_account_id: target.id,
    created_at: new Date().toISOString(),
  });
}

/** `GET /api/v1/directory`: the accounts of a directory page, in order. */
export async function directoryAccounts(
  ctx: AppContext,
  opts: { order: "active" | "new"; local: boolean; viewerId?: string; limit: number; offset: number },
): Promise<Account[]> {
  if (opts.limit === 0) return [];
  const ids = await ctx.repos.discovery.directory(opts);
  const found = new Map((await ctx.repos.accounts.getByIds(ids)).map((a) => [a.id, a]));
  return ids.flatMap((id) => found.get(id) ?? []);
}
