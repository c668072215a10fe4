import type { AppContext } from "../../context.ts";
import type { Filter, FilterKeyword, FilterRow } from "../../db/repositories/filters.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { createFilter, ownedKeyword, updateFilter } from "./filters.ts";

/**
 * The deprecated v1 filters: each V1::Filter is one keyword of a v2 filter (its `id` the
 * keyword's), its `phrase` both the keyword and the filter's title.
 */
export interface V1Filter {
  keyword: FilterKeyword;
  filter: Filter;
}

const DEPRECATED_MULTIPLE_KEYWORDS =
  "Validation failed: These parameters cannot be changed from this application because they apply to more than one filter keyword. Use a more recent application or the web interface.";

/** Every keyword of the account's filters, each with its filter. */
export async function v1Filters(ctx: AppContext, accountId: string): Promise<V1Filter[]> {
  const keywords = await ctx.repos.filters.keywordsOfAccount(accountId);
  const byId = new Map(
    (await ctx.repos.filters.getByIds([...new Set(keywords.map((k) => k.filterId))])).map((f) => [f.id, f]),
  );
  return keywords.flatMap((keyword) => {
    const filter = byId.get(keyword.filterId);
    return filter ? [{ keyword, filter }] : [];
  });
}

/** One of the account's keywords (by its id) with its filter, or a 404. */
export async function ownedV1Filter(ctx: AppContext, accountId: string, keywordId: string): Promise<V1Filter> {
  const keyword = await ownedKeyword(ctx, accountId, keywordId);
  const filter = await ctx.repos.filters.getOwned(accountId, keyword.filterId);
  if (!filter) throw notFound();
  return { keyword, filter };
}

/** A new filter of one keyword, its phrase. */
export async function createV1Filter(
  ctx: AppContext,
  accountId: string,
  row: FilterRow,
  phrase: string,
  wholeWord: boolean,
): Promise<V1Filter> {
  const filter = await createFilter(ctx, accountId, row, [{ keyword: phrase, wholeWord }]);
  const [keyword] = await ctx.repos.filters.keywordsOf([filter.id]);
  return { keyword, filter };
}

/**
 * Changes a v1 filter: its filter (`row`) and its keyword's text and `whole_word`. As Mastodon, a
 * change of the filter itself is refused (422) when the filter has other keywords too, since a v1
 * client cannot see them.
 */
export async function updateV1Filter(
  ctx: AppContext,
  { keyword, filter }: V1Filter,
  row: FilterRow,
  change: { keyword?: string; wholeWord?: boolean },
): Promise<V1Filter> {
  const changed =
    row.title !== filter.title ||
    row.action !== filter.action ||
    row.expiresAt !== filter.expiresAt ||
    JSON.stringify(row.context) !== JSON.stringify(filter.context);
  if (changed && (await ctx.repos.filters.keywordsOf([filter.id])).length > 1) {
    throw new ApiError(422, DEPRECATED_MULTIPLE_KEYWORDS);
  }
  const updated = await updateFilter(ctx, filter, row, [
    { id: keyword.id, keyword: change.keyword, wholeWord: change.wholeWord, destroy: false },
  ]);
  const next = {
    ...keyword,
    keyword: change.keyword ?? keyword.keyword,
    wholeWord: change.wholeWord ?? keyword.wholeWord,
  };
  return { keyword: next, filter: updated };
}
