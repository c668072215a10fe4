import type { AppContext } from "../../context.ts";
import type { TagRow } from "../../db/repositories/search.ts";
import { normalizeHashtag } from "../../lib/text/hashtag-name.ts";

/** A hashtag as typed into search: without `#`, normalised as tags are stored. */
export function normaliseTagQuery(q: string): string {
  return normalizeHashtag(q.trim().replace(/^#+/, "").slice(0, 200));
}

export interface TagSearchOptions {
  excludeUnreviewed: boolean;
  limit: number;
  offset: number;
}

/**
 * Hashtag search: tags whose name starts with the query, shortest first, without the tags
 * moderators made unlisted (`listable` false); `exclude_unreviewed` keeps the tag named exactly
 * and the tags moderators reviewed, as Mastodon's.
 */
export async function searchTags(ctx: AppContext, q: string, opts: TagSearchOptions): Promise<TagRow[]> {
  const name = normaliseTagQuery(q);
  if (name === "" || opts.limit <= 0) return [];
  return ctx.repos.search.tags(name, opts.excludeUnreviewed, opts.limit, opts.offset);
}
