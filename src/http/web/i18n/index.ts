import type { Context } from "hono";
import type { HonoEnv } from "../../types.ts";
import type { SafeHtml } from "../pages/html.ts";
import { escapeHtml, SafeHtml as Safe } from "../pages/html.ts";
import { en } from "./en/index.ts";

/**
 * The web pages' texts: one table per locale, keyed by message. English is complete and is the
 * fallback for any key another locale lacks. Messages name their variables in braces
 * (`"Signed in as {name}"`); a key ending in `.one` / `.other` is chosen by `plural`.
 */
export type MessageKey = keyof typeof en;
export type Messages = { readonly [K in MessageKey]: string };

const LOCALES: Record<string, Partial<Messages>> = { en };

/** The locales pages are available in (a user's locale setting outside these falls back to English). */
export const WEB_LOCALES = Object.keys(LOCALES);
export const DEFAULT_WEB_LOCALE = "en";

/** The best available locale for a stored preference and an `Accept-Language` header. */
export function negotiateLocale(preferred: string | null | undefined, acceptLanguage: string | undefined): string {
  const pick = (tag: string): string | undefined => {
    const lower = tag.trim().toLowerCase();
    if (lower === "" || lower === "*") return undefined;
    if (LOCALES[lower]) return lower;
    const base = lower.split("-")[0];
    return LOCALES[base] ? base : undefined;
  };
  const own = preferred ? pick(preferred) : undefined;
  if (own) return own;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(",")
      .slice(0, 20)
      .map((part, i) => {
        const [tag, ...params] = part.split(";");
        const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
        return { tag, q: q ? Number(q[1]) : 1, i };
      })
      .filter((r) => r.q > 0)
      .sort((a, b) => b.q - a.q || a.i - b.i);
    for (const r of ranked) {
      const found = pick(r.tag);
      if (found) return found;
    }
  }
  return DEFAULT_WEB_LOCALE;
}

export interface Translate {
  /** The message, its `{variables}` filled in (plain text: escape when writing HTML, as `html` does). */
  (key: MessageKey, vars?: Record<string, string | number>): string;
  /** The message as markup: its text escaped, its variables inserted as given (`SafeHtml` kept as is). */
  html(key: MessageKey, vars?: Record<string, string | number | SafeHtml>): SafeHtml;
  /** `key.one` or `key.other` by `count` (also available as `{count}`). */
  plural(key: string, count: number, vars?: Record<string, string | number>): string;
  readonly locale: string;
}

function fill(text: string, vars: Record<string, unknown> | undefined, esc: (s: string) => string): string {
  if (!vars) return text;
  return text.replace(/\{([a-zA-Z0-9_]+)\}/g, (whole, name: string) => {
    if (!(name in vars)) return whole;
    const v = vars[name];
    return v instanceof Safe ? v.value : esc(String(v));
  });
}

/** Each locale's translation function, made once (a page asks for it several times). */
const translators = new Map<string, Translate>();

/** The translation function of one locale. */
export function translator(locale: string): Translate {
  const known = translators.get(locale);
  if (known !== undefined) return known;
  const made = makeTranslator(locale);
  // Locales are negotiated from the known ones, but a caller may name any: keep a bounded few.
  if (translators.size < 100) translators.set(locale, made);
  return made;
}

function makeTranslator(locale: string): Translate {
  const table = LOCALES[locale] ?? en;
  const lookup = (key: string): string =>
    (table as Record<string, string>)[key] ?? (en as Record<string, string>)[key] ?? key;
  const t = ((key: MessageKey, vars?: Record<string, string | number>) =>
    fill(lookup(key), vars, (s) => s)) as Translate;
  t.html = (key, vars) => new Safe(fill(escapeHtml(lookup(key)), vars, escapeHtml));
  t.plural = (key, count, vars) =>
    fill(lookup(`${key}.${count === 1 ? "one" : "other"}`), { count: count.toLocaleString(locale), ...vars }, (s) => s);
  Object.defineProperty(t, "locale", { value: locale });
  return t;
}

/**
 * The locale of this request's page: the signed-in user's locale when the session was read, else
 * the browser's `Accept-Language`. Remembered for the rest of the request.
 */
export function pageLocale(c: Context<HonoEnv>): string {
  const known = c.get("locale");
  if (known) return known;
  const locale = negotiateLocale(c.get("webSession")?.user?.locale, c.req.header("accept-language"));
  c.set("locale", locale);
  return locale;
}

/** The translation function for this request's page. */
export function t(c: Context<HonoEnv>): Translate {
  return translator(pageLocale(c));
}
