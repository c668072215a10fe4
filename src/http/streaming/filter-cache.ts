import type { AppContext } from "../../context.ts";
import { activeFilters } from "../../services/filters/match.ts";
import type { FilterContext } from "../../services/filters/types.ts";
import type { ViewerFilters } from "../../services/statuses/kept.ts";
import { accountsWithFilters } from "../../services/streaming/subscribers.ts";

interface Entry {
  /** Whether the account had any filter in force when last asked (false: nothing to load). */
  any: boolean;
  byScope: Map<FilterContext, ViewerFilters>;
  /** Bumped by every change, so a load that raced with one is not kept. */
  generation: number;
  until: number;
}

/**
 * The compiled filters of the accounts connected to this streaming process, kept while they are
 * connected and dropped when their owner changes them (the hub relays `filters_changed` from
 * each connected account's system channel) or the first of them expires. Which accounts have
 * filters at all is asked for all new viewers of an event at once, so a first event for 10,000
 * new viewers costs a few queries, not 10,000.
 */
export class FilterCache {
  readonly #ctx: AppContext;
  readonly #entries = new Map<string, Entry>();
  constructor(ctx: AppContext) {
    this.#ctx = ctx;
  }

  changed(accountId: string): void {
    const e = this.#entries.get(accountId);
    if (e) {
      e.generation++;
      e.byScope.clear();
      e.until = 0;
    }
  }

  forget(accountId: string): void {
    this.#entries.delete(accountId);
  }

  async forViewers(viewers: readonly string[], scope: FilterContext): Promise<Map<string, ViewerFilters>> {
    const now = Date.now();
    const stale = viewers.filter((v) => {
      const e = this.#entries.get(v);
      return e === undefined || now >= e.until;
    });
    if (stale.length > 0) {
      const generations = new Map(stale.map((v) => [v, this.#entries.get(v)?.generation ?? 0]));
      const withFilters = await accountsWithFilters(this.#ctx, stale, new Date(now).toISOString());
      for (const v of stale) {
        const g = generations.get(v) ?? 0;
        const current = this.#entries.get(v);
        if (current !== undefined && current.generation !== g) continue;
        this.#entries.set(v, {
          any: withFilters.has(v),
          byScope: new Map(),
          generation: g,
          // Accounts without filters are asked again now and then: a filter made in a process
          // whose bus does not reach this one would otherwise never be seen.
          until: withFilters.has(v) ? Number.POSITIVE_INFINITY : now + 60_000,
        });
      }
    }
    const out = new Map<string, ViewerFilters>();
    for (const v of viewers) {
      const e = this.#entries.get(v);
      if (e === undefined || !e.any) continue;
      let f = e.byScope.get(scope);
      if (f === undefined || now >= f.until) {
        const generation = e.generation;
        f = { ...(await activeFilters(this.#ctx, v, scope)), matches: new Map() };
        if (e.generation === generation && this.#entries.get(v) === e) {
          e.byScope.set(scope, f);
          e.until = Math.min(e.until, f.until);
        }
      }
      if (f.compiled.length > 0) out.set(v, f);
    }
    return out;
  }
}
