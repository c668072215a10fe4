/**
 * User search input turned into a small, safe query model, and that model written in the syntax of
 * SQLite FTS5 and of PostgreSQL `to_tsquery`. Nothing the user types reaches either syntax
 * directly: words are runs of letters, digits and marks, quoted; operators come only from the
 * model. So no input can make a full-text query fail.
 *
 * Syntax understood (as PostgreSQL's `websearch_to_tsquery`): words (all must match), `"quoted
 * phrases"`, `-word` or `-"phrase"` to exclude, and `OR` between alternatives; besides,
 * Mastodon's operators (`from:me`, `has:media`, `-is:reply`, `before:2024-01-31`, ...) are
 * taken out of the text for the service to apply as filters.
 */

/** A word (one entry) or a phrase (several, adjacent, in order); `negated` excludes it. */
export interface Clause {
  words: string[];
  negated: boolean;
}

/** Alternatives (`OR`), each a list of clauses that must all hold. */
export type FullTextQuery = Clause[][];

/** The most of the input that is read, and the most words a query keeps. */
export const MAX_QUERY_CHARS = 500;
const MAX_WORDS = 16;
const MAX_WORD_CHARS = 64;

const SEPARATOR = /[^\p{L}\p{N}\p{M}]+/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The words of a piece of text: lower-cased runs of letters, digits and marks, bounded. */
export function wordsOf(text: string): string[] {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .split(SEPARATOR)
    .filter((w) => HAS_LETTER_OR_DIGIT.test(w))
    .map((w) => [...w].slice(0, MAX_WORD_CHARS).join(""));
}

/** Mastodon's search operators (`from:`, `has:`, `is:`, `language:`, `before:`, `after:`, `during:`, `in:`). */
export interface Operator {
  name: "from" | "has" | "is" | "language" | "before" | "after" | "during" | "in";
  value: string;
  negated: boolean;
}

const OPERATOR = /^(from|has|is|language|before|after|during|in):(\S+)$/i;
const MAX_OPERATORS = 8;

/** Parses search input; the text has no empty alternative and at most MAX_WORDS words. */
export function parseFullTextQuery(input: string): FullTextQuery {
  return parseSearchInput(input).text;
}

/** Parses search input into full text and Mastodon's operators. */
export function parseSearchInput(input: string): { text: FullTextQuery; operators: Operator[] } {
  const text = input.slice(0, MAX_QUERY_CHARS);
  const groups: FullTextQuery = [[]];
  const operators: Operator[] = [];
  let budget = MAX_WORDS;
  let i = 0;
  while (i < text.length && budget > 0) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    let negated = false;
    if (ch === "-" && i + 1 < text.length && !/\s/.test(text[i + 1])) {
      negated = true;
      i++;
    }
    let raw: string;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      raw = text.slice(i + 1, end === -1 ? text.length : end);
      i = end === -1 ? text.length : end + 1;
    } else {
      let j = i;
      while (j < text.length && !/\s/.test(text[j])) j++;
      raw = text.slice(i, j);
      i = j;
      if (!negated && raw === "OR") {
        if (groups[groups.length - 1].length > 0) groups.push([]);
        continue;
      }
      const op = OPERATOR.exec(raw);
      if (op) {
        if (operators.length < MAX_OPERATORS) {
          const name = op[1].toLowerCase() as Operator["name"];
          operators.push({ name, value: op[2].slice(0, 255), negated });
        }
        continue;
      }
    }
    const words = wordsOf(raw).slice(0, budget);
    if (words.length === 0) continue;
    budget -= words.length;
    // A quoted phrase, or a term such as `e-mail` that is several words, matches them in order.
    groups[groups.length - 1].push({ words, negated });
  }
  // An alternative with nothing to look for (only exclusions) cannot be answered from an index.
  return { text: groups.filter((g) => g.some((c) => !c.negated)), operators };
}

const fts5Phrase = (c: Clause): string => `"${c.words.join(" ")}"`;

/** The query in FTS5 syntax, fully parenthesised; undefined when there is nothing to look for. */
export function toFts5(query: FullTextQuery): string | undefined {
  if (query.length === 0) return undefined;
  const group = (clauses: Clause[]): string => {
    let out = `(${clauses
      .filter((c) => !c.negated)
      .map(fts5Phrase)
      .join(" AND ")})`;
    for (const c of clauses.filter((c) => c.negated)) out = `(${out} NOT ${fts5Phrase(c)})`;
    return out;
  };
  return query.map(group).join(" OR ");
}

const tsPhrase = (c: Clause): string => {
  const words = c.words.map((w) => `'${w}'`);
  return words.length === 1 ? words[0] : `(${words.join(" <-> ")})`;
};

/** The query in `to_tsquery` syntax; undefined when there is nothing to look for. */
export function toTsQuery(query: FullTextQuery): string | undefined {
  if (query.length === 0) return undefined;
  const group = (clauses: Clause[]): string =>
    `(${clauses.map((c) => (c.negated ? `!${tsPhrase(c)}` : tsPhrase(c))).join(" & ")})`;
  return query.map(group).join(" | ");
}

/** Words that must all be the start of a word (account search), in FTS5 syntax. */
export function prefixFts5(words: readonly string[]): string | undefined {
  if (words.length === 0) return undefined;
  return words.map((w) => `"${w}"*`).join(" AND ");
}

/** Words that must all be the start of a word (account search), in `to_tsquery` syntax. */
export function prefixTsQuery(words: readonly string[]): string | undefined {
  if (words.length === 0) return undefined;
  return words.map((w) => `'${w}':*`).join(" & ");
}
