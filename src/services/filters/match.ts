import type { AppContext } from "../../context.ts";
import type { ActiveFilter, FilterContext, FilterKeyword } from "../../db/repositories/filters.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import { htmlToText } from "../../lib/text/html-text.ts";
import { serializeFilter, serializeFilterResult } from "../../serializers/filter.ts";
import type { LoadedStatusView } from "../statuses/views.ts";

/** Where statuses are shown, or `any` (one status on its own: every active filter, nothing hidden). */
export type FilterScope = FilterContext | "any";

/** A filter ready to match: its keywords as one regular expression, its status ids as a set. */
export interface CompiledFilter {
  /** The FilterResult's `filter` (without its rules, as Mastodon gives it there). */
  json: Record<string, unknown>;
  hide: boolean;
  regex: RegExp | null;
  /**
   * The keywords lower-cased, when all are ASCII: a text whose lower-case form holds none of them
   * cannot match the regex (see `mayMatch`), which is then not run.
   */
  needles: string[] | null;
  statusIds: Set<string>;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point.
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Whether `lower` (a text's `toLowerCase()`) may hold a match of an ASCII keyword under the
 * regex's case-insensitive Unicode matching. Only two non-ASCII characters fold to ASCII letters:
 * the Kelvin sign (lower-cased to `k` already) and the long s (`ſ`, kept as it is), so a text
 * with a long s is always given to the regex.
 */
function mayMatch(needles: readonly string[], lower: string): boolean {
  return lower.includes("ſ") || needles.some((n) => lower.includes(n));
}

// Ruby's [[:word:]] (and `\b` in Onigmo's default mode): letters, marks, decimal digits, connectors.
const WORD = "[\\p{L}\\p{M}\\p{Nd}\\p{Pc}]";
const STARTS_WITH_WORD = new RegExp(`^${WORD}`, "u");
const ENDS_WITH_WORD = new RegExp(`${WORD}$`, "u");

const escapeRegex = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

/**
 * One keyword as Mastodon's CustomFilterKeyword#to_regex: the text itself, case-insensitive;
 * `whole_word` adds a word boundary on each side that starts or ends with a word character.
 */
export function keywordPattern(k: Pick<FilterKeyword, "keyword" | "wholeWord">): string {
  const body = escapeRegex(k.keyword);
  if (!k.wholeWord) return body;
  const before = STARTS_WITH_WORD.test(k.keyword) ? `(?<!${WORD})` : "";
  const after = ENDS_WITH_WORD.test(k.keyword) ? `(?!${WORD})` : "";
  return `${before}${body}${after}`;
}

export function compileFilter(a: ActiveFilter): CompiledFilter {
  return {
    json: serializeFilter(a.filter),
    hide: a.filter.action === "hide",
    regex: a.keywords.length > 0 ? new RegExp(a.keywords.map((k) => keywordPattern(k)).join("|"), "iu") : null,
    needles: a.keywords.every((k) => ASCII.test(k.keyword)) ? a.keywords.map((k) => k.keyword.toLowerCase()) : null,
    statusIds: new Set(a.statusIds),
  };
}

/**
 * The viewer's filters in force for `scope`, compiled, with when the first of them expires (ms,
 * Infinity when none does): one query.
 */
export async function activeFilters(
  ctx: AppContext,
  viewerId: string,
  scope: FilterScope,
): Promise<{ compiled: CompiledFilter[]; until: number }> {
  const active = (await ctx.repos.filters.activeFor(viewerId, new Date().toISOString())).filter(
    (a) => scope === "any" || a.filter.context.includes(scope),
  );
  let until = Number.POSITIVE_INFINITY;
  for (const a of active) if (a.filter.expiresAt !== null) until = Math.min(until, Date.parse(a.filter.expiresAt));
  return { compiled: active.map(compileFilter), until };
}

/** The viewer's filters in force for `scope`, compiled: one query. */
export async function loadFilters(ctx: AppContext, viewerId: string, scope: FilterScope): Promise<CompiledFilter[]> {
  return (await activeFilters(ctx, viewerId, scope)).compiled;
}

/**
 * What keywords are matched against, as Mastodon's Status#searchable_text: content warning, the
 * plain text, the poll's options and the media descriptions.
 */
export function searchableText(view: LoadedStatusView): string {
  const s = view.status;
  const parts = [s.spoilerText, s.local ? s.text : htmlToText(s.content)];
  if (view.poll) parts.push(view.poll.poll.options.join("\n\n"));
  parts.push(view.media.flatMap((m) => (m.description ? [m.description] : [])).join("\n\n"));
  return parts.join("\n\n");
}

/** The FilterResults for a status (a boost is matched by its boosted post), and whether one hides it. */
export function matchFilters(
  filters: readonly CompiledFilter[],
  status: Status,
  text: string,
): { results: Record<string, unknown>[]; hide: boolean } {
  const results: Record<string, unknown>[] = [];
  let hide = false;
  let lower: string | undefined;
  for (const f of filters) {
    let m: RegExpExecArray | null = null;
    if (f.regex && (f.needles === null || mayMatch(f.needles, (lower ??= text.toLowerCase())))) m = f.regex.exec(text);
    const keywordMatches = m ? [m[0]] : null;
    const ids = [status.id, status.reblogOfId].filter((id): id is string => id !== null && f.statusIds.has(id));
    const statusMatches = ids.length > 0 ? ids : null;
    if (!keywordMatches && !statusMatches) continue;
    results.push(serializeFilterResult(f.json, keywordMatches, statusMatches));
    hide ||= f.hide;
  }
  return { results, hide };
}

/**
 * Sets `filtered` on each view (and on its boosted post, as Mastodon's filters map does) and
 * leaves out the statuses a `hide` filter matches, when `dropHidden`.
 */
export function applyFilters(views: LoadedStatusView[], filters: readonly CompiledFilter[], dropHidden: boolean) {
  if (filters.length === 0) return views;
  return views.filter((v) => {
    const { results, hide } = matchFilters(filters, v.status, searchableText(v.reblog ?? v));
    v.filtered = results;
    if (v.reblog) v.reblog.filtered = results;
    return !(hide && dropHidden);
  });
}
