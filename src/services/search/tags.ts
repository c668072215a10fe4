import type { AppContext } from "../../context.ts";
import type { TagRow } from "../../db/repositories/search.ts";
import { idAtTime } from "../../lib/ids.ts";
import { tagUrl } from "../../serializers/status.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A hashtag as typed into search: without `#`, NFKC, lower case, only letters, digits, marks and `_`. */
export function normaliseTagQuery(q: string): string {
  return q
    .trim()
    .replace(/^#+/, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_]/gu, "")
    .slice(0, 200);
}

export interface TagSearchOptions {
  excludeUnreviewed: boolean;
  limit: number;
  offset: number;
}

/**
 * Hashtag search: tags whose name starts with the query, shortest first. No tag is reviewed on
 * this server yet, so `exclude_unreviewed` keeps only the tag named exactly (Mastodon keeps the
 * exact match and reviewed tags).
 */
export async function searchTags(ctx: AppContext, q: string, opts: TagSearchOptions): Promise<TagRow[]> {
  const name = normaliseTagQuery(q);
  if (name === "" || opts.limit <= 0) return [];
  return ctx.repos.search.tags(name, opts.excludeUnreviewed, opts.limit, opts.offset);
}

/**
 * Tag entities with their 7-day history (newest day first), in one query for all of them; the
 * same shape as `tagJson` (services/statuses/tags.ts). `following` and `featuring` are given to
 * a signed-in caller (`viewerId`).
 */
export async function tagsJson(
  ctx: AppContext,
  tags: readonly TagRow[],
  viewerId: string | undefined,
): Promise<Record<string, unknown>[]> {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - 6 * DAY_MS);
  const ids = tags.map((t) => t.id);
  const [uses, states] = await Promise.all([
    ctx.repos.search.tagUses(ids, since.toISOString(), idAtTime(since)),
    viewerId === undefined ? undefined : ctx.repos.tagCuration.tagStates(viewerId, ids),
  ]);
  return tags.map((tag) => {
    const days = uses.get(tag.id);
    const history = Array.from({ length: 7 }, (_, i) => {
      const day = new Date(today - i * DAY_MS);
      const u = days?.get(day.toISOString().slice(0, 10));
      return { day: String(day.getTime() / 1000), uses: String(u?.uses ?? 0), accounts: String(u?.accounts ?? 0) };
    });
    const out: Record<string, unknown> = {
      id: tag.id,
      name: tag.displayName,
      url: tagUrl(ctx.config.baseUrl, tag.name),
      history,
    };
    if (states !== undefined) {
      out.following = states.following.has(tag.id);
      out.featuring = states.featuring.has(tag.id);
    }
    return out;
  });
}
