/** What the Filter entities read of a filter (a filter row has these and more). */
export interface FilterView {
  id: string;
  title: string;
  context: readonly string[];
  /** `warn`, `hide` or `blur`. */
  action: string;
  expiresAt: string | null;
}

export interface FilterKeywordView {
  id: string;
  keyword: string;
  wholeWord: boolean;
}

export interface FilterStatusView {
  id: string;
  statusId: string;
}

export function serializeFilterKeyword(k: FilterKeywordView): Record<string, unknown> {
  return { id: k.id, keyword: k.keyword, whole_word: k.wholeWord };
}

export function serializeFilterStatus(s: FilterStatusView): Record<string, unknown> {
  return { id: s.id, status_id: s.statusId };
}

/**
 * Mastodon's Filter entity; `keywords` and `statuses` only when given (the filters API gives
 * them, a FilterResult's filter does not).
 */
export function serializeFilter(
  f: FilterView,
  rules?: { keywords: readonly FilterKeywordView[]; statuses: readonly FilterStatusView[] },
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: f.id,
    title: f.title,
    context: f.context,
    expires_at: f.expiresAt,
    filter_action: f.action,
  };
  if (rules) {
    out.keywords = rules.keywords.map(serializeFilterKeyword);
    out.statuses = rules.statuses.map(serializeFilterStatus);
  }
  return out;
}

/** V1::Filter: one keyword of a filter (the deprecated API). */
export function serializeV1Filter(k: FilterKeywordView, f: FilterView): Record<string, unknown> {
  return {
    id: k.id,
    phrase: k.keyword,
    context: f.context,
    whole_word: k.wholeWord,
    expires_at: f.expiresAt,
    irreversible: f.action === "hide",
  };
}

/** FilterResult: which filter matched a status, by which keywords and statuses. */
export function serializeFilterResult(
  filter: Record<string, unknown>,
  keywordMatches: string[] | null,
  statusMatches: string[] | null,
): Record<string, unknown> {
  return { filter, keyword_matches: keywordMatches, status_matches: statusMatches };
}
