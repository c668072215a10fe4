import type { User } from "../../db/repositories/users.ts";

/** At most this many languages are taken from a request (a long header would make many cache keys). */
const MAX_LANGUAGES = 8;

const LANGUAGE = /^[a-z]{2,3}$/;

/** The primary language subtag of a tag such as `en-GB` (lower case), or undefined for `*` and junk. */
export function primaryLanguage(tag: string): string | undefined {
  const p = tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? "";
  return LANGUAGE.test(p) ? p : undefined;
}

/** The languages of an `Accept-Language` header, most wanted first, without those refused (`q=0`). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined || header.length > 1000) return [];
  const ranked: { lang: string; q: number; at: number }[] = [];
  header.split(",").forEach((part, at) => {
    const [tag = "", ...params] = part.split(";");
    const lang = primaryLanguage(tag);
    if (lang === undefined) return;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (Number.isFinite(q) && q > 0) ranked.push({ lang, q, at });
  });
  ranked.sort((a, b) => b.q - a.q || a.at - b.at);
  return [...new Set(ranked.map((r) => r.lang))].slice(0, MAX_LANGUAGES);
}

/**
 * The languages trending posts and links are shown in (Mastodon's Trends::Query `in_locale` and
 * `filtered_for`): a signed-in reader's chosen languages, interface and posting languages, the
 * request's `Accept-Language`, and the server's default. Sorted, so equal sets share a cache entry.
 */
export function readerLanguages(
  user: User | undefined,
  acceptLanguage: string | undefined,
  defaultLocale: string,
): string[] {
  const out = new Set<string>();
  const add = (tag: string | null | undefined) => {
    const p = tag ? primaryLanguage(tag) : undefined;
    if (p !== undefined) out.add(p);
  };
  if (user !== undefined) {
    for (const l of user.settings.chosenLanguages ?? []) add(l);
    add(user.locale);
    add(user.settings.language);
  }
  for (const l of acceptedLanguages(acceptLanguage)) add(l);
  add(defaultLocale);
  return [...out].sort();
}
