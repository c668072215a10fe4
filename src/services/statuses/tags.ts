import type { AppContext } from "../../context.ts";
import { notFound } from "../../lib/errors.ts";
import { tagUrl } from "../../serializers/status.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Mastodon's Tag entity with a 7-day history (newest day first) computed from the statuses using
 * it; a signed-in viewer (`viewerId`) also gets `following` and `featuring`.
 */
export async function tagJson(
  ctx: AppContext,
  tag: { id: string; name: string; displayName: string },
  viewerId: string | undefined,
): Promise<Record<string, unknown>> {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const since = new Date(today - 6 * DAY_MS).toISOString();
  const uses = await ctx.repos.statuses.tagUsesSince(tag.id, since);
  const history = Array.from({ length: 7 }, (_, i) => {
    const day = new Date(today - i * DAY_MS);
    const u = uses.get(day.toISOString().slice(0, 10));
    return { day: String(day.getTime() / 1000), uses: String(u?.uses ?? 0), accounts: String(u?.accounts ?? 0) };
  });
  const out: Record<string, unknown> = {
    id: tag.id,
    name: tag.displayName,
    url: tagUrl(ctx.config.baseUrl, tag.name),
    history,
  };
  if (viewerId !== undefined) {
    const states = await ctx.repos.tagCuration.tagStates(viewerId, [tag.id]);
    out.following = states.following.has(tag.id);
    out.featuring = states.featuring.has(tag.id);
  }
  return out;
}

// Mastodon's hashtag name rule: word characters (with `·` and ZWNJ inside), at least one letter or `_`.
const HASHTAG_NAME = /^(?=.*[\p{L}_])[\p{L}\p{M}\p{N}_]([\p{L}\p{M}\p{N}_·\u200c]*[\p{L}\p{M}\p{N}_])?$/u;

/**
 * The Tag of a name no post has used yet, as Mastodon renders a tag it has not stored (empty `id`,
 * seven days of no use); `following`/`featuring` (false) only for a signed-in viewer. An
 * impossible name is 404.
 */
export function unusedTagJson(ctx: AppContext, name: string, signedIn: boolean): Record<string, unknown> {
  if (name.length > 200 || !HASHTAG_NAME.test(name)) throw notFound();
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const tag: Record<string, unknown> = {
    id: "",
    name,
    url: tagUrl(ctx.config.baseUrl, name),
    history: Array.from({ length: 7 }, (_, i) => ({
      day: String((today - i * DAY_MS) / 1000),
      uses: "0",
      accounts: "0",
    })),
  };
  if (signedIn) {
    tag.following = false;
    tag.featuring = false;
  }
  return tag;
}
