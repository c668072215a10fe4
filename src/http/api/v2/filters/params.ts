import { ApiError, notFound } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import {
  FILTER_ACTIONS,
  FILTER_CONTEXTS,
  type FilterAction,
  type FilterContext,
  type KeywordChange,
} from "../../../../services/filters/filters.ts";
import { asArray, asHashList } from "../../../params.ts";

export const TITLE_MAX = 256;
export const KEYWORD_MAX = 512;
/** At most this many keyword changes in one request (Mastodon has no limit; a bound on the work). */
export const KEYWORD_CHANGES_MAX = 200;
const EXPIRES_IN_MAX = 2_147_483_647;

/** Rails' `blank?`: nil, false, whitespace, an empty array or hash. */
export function isBlank(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return true;
  if (typeof v === "string") return v.trim() === "";
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object" && !(v instanceof File)) return Object.keys(v).length === 0;
  return false;
}

/** Rails' boolean cast; undefined for a value that is no boolean. */
export function toBool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") {
    const l = v.trim().toLowerCase();
    if (["true", "1", "on", "t", "yes"].includes(l)) return true;
    if (["false", "0", "off", "f", "no", ""].includes(l)) return false;
  }
  return undefined;
}

/** Collects validation messages and throws them all as one 422, as Rails does. */
export class Problems {
  readonly list: string[] = [];
  add(message: string): void {
    this.list.push(message);
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new ApiError(422, `Validation failed: ${this.list.join(", ")}`);
  }
}

export function parseTitle(v: unknown, problems: Problems, field = "Title"): string | undefined {
  if (typeof v === "number") v = String(v);
  if (isBlank(v)) {
    problems.add(`${field} can't be blank`);
    return undefined;
  }
  if (typeof v !== "string") {
    problems.add(`${field} is invalid`);
    return undefined;
  }
  if ([...v].length > TITLE_MAX) problems.add(`${field} is too long (maximum is ${TITLE_MAX} characters)`);
  return v;
}

/** `context[]`: trimmed, blanks dropped; empty or unknown values are a validation error. */
export function parseContext(v: unknown, problems: Problems): FilterContext[] | undefined {
  const given = (asArray(v) ?? []).map((x) => (typeof x === "string" ? x.trim() : x)).filter((x) => !isBlank(x));
  if (given.length === 0) {
    problems.add("Context can't be blank");
    return undefined;
  }
  if (!given.every((x) => (FILTER_CONTEXTS as readonly unknown[]).includes(x))) {
    problems.add("Context None or invalid context supplied");
    return undefined;
  }
  return [...new Set(given as FilterContext[])];
}

export function parseAction(v: unknown, problems: Problems): FilterAction | undefined {
  if (typeof v === "string" && (FILTER_ACTIONS as readonly string[]).includes(v)) return v as FilterAction;
  problems.add("Action is not included in the list");
  return undefined;
}

/** `expires_in` (seconds): blank is "never"; else a time from now. */
export function parseExpiresIn(v: unknown, problems: Problems, now: number): string | null | undefined {
  if (isBlank(v)) return null;
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > EXPIRES_IN_MAX) {
    problems.add("Expires in is invalid");
    return undefined;
  }
  return new Date(now + n * 1000).toISOString();
}

/** A keyword as given: required when `required`, at most KEYWORD_MAX characters. */
export function parseKeyword(v: unknown, problems: Problems, field: string, required: boolean): string | undefined {
  if (typeof v === "number") v = String(v);
  if (v === undefined && !required) return undefined;
  if (isBlank(v)) {
    problems.add(`${field} can't be blank`);
    return undefined;
  }
  if (typeof v !== "string") {
    problems.add(`${field} is invalid`);
    return undefined;
  }
  if ([...v].length > KEYWORD_MAX) problems.add(`${field} is too long (maximum is ${KEYWORD_MAX} characters)`);
  return v;
}

export function parseWholeWord(v: unknown, problems: Problems, field = "Whole word"): boolean | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  const b = toBool(v);
  if (b === undefined) problems.add(`${field} is invalid`);
  return b;
}

/**
 * `keywords_attributes[]` as Rails' nested attributes: a scalar, entries that are not hashes and
 * entries with nothing but blanks are ignored, an entry with `_destroy` and no `id` too; an `id`
 * that is no keyword of the filter is a 404 (`known` holds the filter's keyword ids).
 */
export function parseKeywordChanges(v: unknown, problems: Problems, known: ReadonlySet<string>): KeywordChange[] {
  const items = asHashList(v) ?? [];
  if (items.length > KEYWORD_CHANGES_MAX) {
    throw new ApiError(422, `Validation failed: Keywords too many (maximum is ${KEYWORD_CHANGES_MAX})`);
  }
  const out: KeywordChange[] = [];
  for (const p of items) {
    if (Object.entries(p).every(([k, x]) => k === "_destroy" || isBlank(x))) continue;
    const destroy = toBool(p._destroy) === true;
    const rawId = typeof p.id === "number" ? String(p.id) : p.id;
    if (!isBlank(rawId)) {
      if (!isId(rawId) || !known.has(rawId)) throw notFound();
      if (destroy) {
        out.push({ id: rawId, destroy: true });
        continue;
      }
      out.push({
        id: rawId,
        keyword: parseKeyword(p.keyword, problems, "Keywords keyword", false),
        wholeWord: parseWholeWord(p.whole_word, problems, "Keywords whole word"),
        destroy: false,
      });
      continue;
    }
    if (destroy) continue;
    out.push({
      keyword: parseKeyword(p.keyword, problems, "Keywords keyword", true),
      wholeWord: parseWholeWord(p.whole_word, problems, "Keywords whole word"),
      destroy: false,
    });
  }
  return out;
}
