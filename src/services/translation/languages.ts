import type { AppContext } from "../../context.ts";
import { AUTO_DETECT, type LanguageMap, normalizeLanguage, type TranslationBackend } from "./backend.ts";

/** How long a backend's language list is kept (Mastodon keeps it a week). */
const LANGUAGES_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Requests for the language list under way in this process, by cache key: readers arriving
 * together on an empty cache share one request to the backend.
 */
export type InFlight = Map<string, Promise<LanguageMap>>;

function isLanguageMap(v: unknown): v is LanguageMap {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  return Object.values(v).every((t) => Array.isArray(t) && t.every((x) => typeof x === "string"));
}

/**
 * The backend's languages: from the key-value store (shared by every process) while fresh,
 * else asked of the backend and stored. A failed request is not stored, so the next reader asks again.
 */
export async function translationLanguages(
  ctx: AppContext,
  backend: TranslationBackend,
  inFlight: InFlight,
): Promise<LanguageMap> {
  const key = `translation:languages:${backend.cacheId}`;
  const now = Date.now();
  const stored = await ctx.repos.kv.get(key, new Date(now).toISOString());
  if (stored !== undefined) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (isLanguageMap(parsed)) return parsed;
    } catch {
      // Unreadable: asked again below, and overwritten.
    }
  }
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      const map = await backend.languages();
      await ctx.repos.kv.set(key, JSON.stringify(map), new Date(now + LANGUAGES_TTL_MS).toISOString());
      return map;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** The entry of `map` for a language, as the backend spells it: exact, else case and `_` aside. */
function findLanguage(list: Iterable<string>, wanted: string): string | undefined {
  const norm = normalizeLanguage(wanted);
  for (const l of list) if (l === wanted) return l;
  for (const l of list) if (normalizeLanguage(l) === norm) return l;
  return undefined;
}

/**
 * Which source the backend knows a post's language as: the language itself, else its base
 * language (`pt-BR` → `pt`); a post without a language is auto-detected.
 */
export function sourceOf(map: LanguageMap, language: string | null): string | undefined {
  if (language === null || language === "" || language === AUTO_DETECT)
    return AUTO_DETECT in map ? AUTO_DETECT : undefined;
  const sources = Object.keys(map);
  return findLanguage(sources, language) ?? findLanguage(sources, language.split(/[_-]/)[0] as string);
}

/**
 * The target language asked for, as the backend spells it: the tag itself when the backend
 * translates into it, else its base language (`de-AT` → `de`), as Mastodon falls back.
 */
export function targetOf(targets: readonly string[], wanted: string): string | undefined {
  return findLanguage(targets, wanted) ?? findLanguage(targets, wanted.split(/[_-]/)[0] as string);
}
