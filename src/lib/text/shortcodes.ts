/** A shortcode as Mastodon accepts it: two or more ASCII letters, digits or underscores. */
export const SHORTCODE_RE = /^[a-zA-Z0-9_]{2,}$/;

export const isShortcode = (s: string): boolean => SHORTCODE_RE.test(s);

/** Why a shortcode is refused (Mastodon's wording), or undefined when it is good. */
export function shortcodeProblem(shortcode: string): string | undefined {
  if (shortcode.length < 2) return "Shortcode is too short (minimum is 2 characters)";
  if (!isShortcode(shortcode)) return "Shortcode must only contain letters, numbers and underscores";
  return undefined;
}

/**
 * `:shortcode:` in text, as Mastodon scans it: not glued to a letter, digit or colon on either
 * side, so `a:b:c`, `12:30:45` and `::x::` name no emoji.
 */
const SCAN_RE = /(?<=^|[^\p{Alphabetic}\p{Nd}:]):([a-zA-Z0-9_]{2,}):(?=[^\p{Alphabetic}\p{Nd}:]|$)/gmu;

/** The distinct shortcodes named in the texts, in order of first appearance. */
export function shortcodesIn(texts: Iterable<string | null | undefined>): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    if (!text?.includes(":")) continue;
    for (const m of text.matchAll(SCAN_RE)) found.add(m[1] as string);
  }
  return [...found];
}

/** `text` with each `:shortcode:` (as `shortcodesIn` finds them) replaced by what `replace` makes of it. */
export function replaceShortcodes(text: string, replace: (shortcode: string, whole: string) => string): string {
  if (!text.includes(":")) return text;
  return text.replace(SCAN_RE, (whole, code: string) => replace(code, whole));
}
