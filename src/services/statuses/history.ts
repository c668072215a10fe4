import type { AppContext } from "../../context.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { serializeStatusEdit } from "../../serializers/status.ts";
import { accountJson } from "../accounts/views.ts";
import { loadEmojis } from "../custom-emojis/views.ts";

/**
 * A status's edit history (Mastodon's StatusEdit entities), oldest first: its stored versions, or
 * the status itself (with its poll's options) when it was never edited.
 */
export async function statusHistoryJson(ctx: AppContext, status: Status): Promise<Record<string, unknown>[]> {
  const author = await ctx.repos.accounts.getById(status.accountId);
  const account = author ? await accountJson(ctx, author) : {};
  const [edits, quote] = await Promise.all([
    ctx.repos.statuses.editsOf(status.id),
    ctx.repos.quotes.byQuotingStatus(status.id),
  ]);
  const poll = status.pollId ? await ctx.repos.polls.getById(status.pollId) : undefined;
  const versions = edits.length > 0 ? edits : [{ ...status, pollOptions: poll?.options ?? null }];
  const domain = author?.domain ?? null;
  const emojis = await loadEmojis(
    ctx,
    versions.map((v) => ({ domain, texts: [v.spoilerText, v.text] })),
  );
  const blobUrl = (key: string) => ctx.blobs.url(key);
  // An edit cannot change what a post quotes: every version shows its quote.
  const shallow =
    quote && (quote.state === "accepted" || !quote.legacy)
      ? {
          state: quote.state,
          quotedStatusId: quote.state === "accepted" ? quote.quotedStatusId : null,
          quoted: null,
          shallow: true,
        }
      : null;
  return versions.map((v, i) => serializeStatusEdit(v, account, emojis[i] ?? [], blobUrl, shallow));
}
