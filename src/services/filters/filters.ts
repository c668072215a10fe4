import type { AppContext } from "../../context.ts";
import type { Filter, FilterKeyword, FilterRow, FilterStatus } from "../../db/repositories/filters.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { serializeFilter } from "../../serializers/filter.ts";
import { isVisible } from "../statuses/views.ts";
import { publishAll, systemChannel } from "../streaming/channels.ts";

/** The filter types and values routes need, given here so that routes import nothing from `src/db`. */
export {
  FILTER_ACTIONS,
  FILTER_CONTEXTS,
  type Filter,
  type FilterAction,
  type FilterContext,
  type FilterKeyword,
  type FilterRow,
} from "../../db/repositories/filters.ts";

/** The bus event (on the owner's `timeline:<account id>` channel) after any change of their filters. */
export const FILTERS_CHANGED = "filters_changed";
export const filtersChannel = (accountId: string): string => `timeline:${accountId}`;

/**
 * Once per request that changed filters, however many rows it touched: streaming relays it to
 * the owner's `user` streams, and its system channel tells streaming processes to drop the
 * filters they keep for the owner.
 */
async function announce(ctx: AppContext, accountId: string): Promise<void> {
  await publishAll(ctx, [filtersChannel(accountId), systemChannel(accountId)], FILTERS_CHANGED, null);
}

/** One entry of `keywords_attributes[]`: a new keyword, or an edit or removal of one by `id`. */
export interface KeywordChange {
  id?: string;
  keyword?: string;
  wholeWord?: boolean;
  destroy: boolean;
}

export async function ownedFilter(ctx: AppContext, accountId: string, id: string): Promise<Filter> {
  const f = await ctx.repos.filters.getOwned(accountId, id);
  if (!f) throw notFound();
  return f;
}

export async function ownedKeyword(ctx: AppContext, accountId: string, id: string): Promise<FilterKeyword> {
  const k = await ctx.repos.filters.getKeywordOwned(accountId, id);
  if (!k) throw notFound();
  return k;
}

export async function ownedFilterStatus(ctx: AppContext, accountId: string, id: string): Promise<FilterStatus> {
  const s = await ctx.repos.filters.getStatusOwned(accountId, id);
  if (!s) throw notFound();
  return s;
}

/** Filter entities with their keywords and statuses, in three queries whatever their number. */
export async function filtersJson(ctx: AppContext, filters: readonly Filter[]): Promise<Record<string, unknown>[]> {
  const ids = filters.map((f) => f.id);
  const [keywords, statuses] = await Promise.all([
    ctx.repos.filters.keywordsOf(ids),
    ctx.repos.filters.statusesOf(ids),
  ]);
  return filters.map((f) =>
    serializeFilter(f, {
      keywords: keywords.filter((k) => k.filterId === f.id),
      statuses: statuses.filter((s) => s.filterId === f.id),
    }),
  );
}

export async function filterJson(ctx: AppContext, filter: Filter): Promise<Record<string, unknown>> {
  return (await filtersJson(ctx, [filter]))[0];
}

/** The account's filters as Filter entities (`GET /api/v2/filters`). */
export async function accountFiltersJson(ctx: AppContext, accountId: string): Promise<Record<string, unknown>[]> {
  return filtersJson(ctx, await ctx.repos.filters.listByAccount(accountId));
}

/** A filter's keywords. */
export function filterKeywords(ctx: AppContext, filter: Filter): Promise<FilterKeyword[]> {
  return ctx.repos.filters.keywordsOf([filter.id]);
}

/** The statuses a filter names. */
export function filterStatuses(ctx: AppContext, filter: Filter): Promise<FilterStatus[]> {
  return ctx.repos.filters.statusesOf([filter.id]);
}

/** A new filter and its keywords, in one transaction. */
export async function createFilter(
  ctx: AppContext,
  accountId: string,
  row: FilterRow,
  keywords: readonly { keyword: string; wholeWord: boolean }[],
): Promise<Filter> {
  const id = ctx.ids.next();
  const at = new Date().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.filters.insertFilter({ ...row, id, accountId, at }, trx);
    for (const k of keywords) {
      await ctx.repos.filters.insertKeyword({ id: ctx.ids.next(), filterId: id, ...k, at }, trx);
    }
  });
  await announce(ctx, accountId);
  return (await ctx.repos.filters.getOwned(accountId, id)) as Filter;
}

/**
 * Changes a filter and creates, edits and removes its keywords (`changes`, checked beforehand:
 * every `id` is one of the filter's keywords and every new keyword has its text), all or nothing.
 */
export async function updateFilter(
  ctx: AppContext,
  filter: Filter,
  row: FilterRow,
  changes: readonly KeywordChange[],
): Promise<Filter> {
  const at = new Date().toISOString();
  const existing = new Map((await ctx.repos.filters.keywordsOf([filter.id])).map((k) => [k.id, k]));
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.filters.updateFilter(filter.id, row, at, trx);
    for (const c of changes) {
      const old = c.id === undefined ? undefined : existing.get(c.id);
      if (c.id !== undefined && !old) throw notFound();
      if (old && c.destroy) await ctx.repos.filters.deleteKeyword(old.id, trx);
      else if (old) {
        await ctx.repos.filters.updateKeyword(old.id, c.keyword ?? old.keyword, c.wholeWord ?? old.wholeWord, at, trx);
      } else if (c.keyword !== undefined) {
        const k = { id: ctx.ids.next(), filterId: filter.id, keyword: c.keyword, wholeWord: c.wholeWord ?? true, at };
        await ctx.repos.filters.insertKeyword(k, trx);
      }
    }
  });
  await announce(ctx, filter.accountId);
  return (await ctx.repos.filters.getOwned(filter.accountId, filter.id)) as Filter;
}

export async function deleteFilter(ctx: AppContext, filter: Filter): Promise<void> {
  await ctx.db.transaction().execute((trx) => ctx.repos.filters.deleteFilter(filter.id, trx));
  await announce(ctx, filter.accountId);
}

export async function addKeyword(
  ctx: AppContext,
  filter: Filter,
  keyword: string,
  wholeWord: boolean,
): Promise<FilterKeyword> {
  const k = { id: ctx.ids.next(), filterId: filter.id, keyword, wholeWord };
  await ctx.db
    .transaction()
    .execute((trx) => ctx.repos.filters.insertKeyword({ ...k, at: new Date().toISOString() }, trx));
  await announce(ctx, filter.accountId);
  return k;
}

export async function editKeyword(
  ctx: AppContext,
  accountId: string,
  k: FilterKeyword,
  change: { keyword?: string; wholeWord?: boolean },
): Promise<FilterKeyword> {
  const next = { ...k, keyword: change.keyword ?? k.keyword, wholeWord: change.wholeWord ?? k.wholeWord };
  const at = new Date().toISOString();
  await ctx.db
    .transaction()
    .execute((trx) => ctx.repos.filters.updateKeyword(k.id, next.keyword, next.wholeWord, at, trx));
  await announce(ctx, accountId);
  return next;
}

/** Removes a keyword; with `dropEmpty` (the v1 API) a filter left with no rules goes too. */
export async function removeKeyword(
  ctx: AppContext,
  accountId: string,
  k: FilterKeyword,
  opts: { dropEmpty?: boolean } = {},
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.filters.deleteKeyword(k.id, trx);
    if (opts.dropEmpty && (await ctx.repos.filters.ruleCount(k.filterId, trx)) === 0) {
      await ctx.repos.filters.deleteFilter(k.filterId, trx);
    }
  });
  await announce(ctx, accountId);
}

/** Adds a status the owner may see to a filter; a status filtered there already is a 422. */
export async function addStatus(ctx: AppContext, filter: Filter, statusId: string): Promise<FilterStatus> {
  const [status] = await ctx.repos.statuses.getByIds([statusId]);
  if (!status || !(await isVisible(ctx, status, filter.accountId))) {
    throw new ApiError(422, "Validation failed: Status must exist");
  }
  const s = { id: ctx.ids.next(), filterId: filter.id, statusId: status.id };
  const added = await ctx.db
    .transaction()
    .execute((trx) => ctx.repos.filters.insertStatus({ ...s, at: new Date().toISOString() }, trx));
  if (!added) throw new ApiError(422, "Validation failed: Status has already been taken");
  await announce(ctx, filter.accountId);
  return s;
}

export async function removeStatus(ctx: AppContext, accountId: string, s: FilterStatus): Promise<void> {
  await ctx.db.transaction().execute((trx) => ctx.repos.filters.deleteStatus(s.id, trx));
  await announce(ctx, accountId);
}
