/**
 * Finds the links, hashtags and mentions in plain text, the way Mastodon's text formatter sees
 * them: URLs need a scheme, hashtags and mentions must not be glued to a preceding word.
 */

export type TextEntity =
  | { kind: "url"; start: number; end: number; url: string }
  | { kind: "hashtag"; start: number; end: number; tag: string }
  | { kind: "mention"; start: number; end: number; username: string; domain: string | null };

/** Schemes linked besides http(s) (Mastodon links the same extra ones). */
const URL_RE =
  /(?<![\p{L}\p{N}@$#/_])(?:(?:https?|dat|dweb|ipfs|ipns|ssb|gopher|gemini):\/\/[^\s<>"'`]+|(?:xmpp|magnet):[^\s<>"'`]+)/giu;

// Letters with their marks (`e` + combining accent), digits and Mastodon's hashtag separators.
const HASHTAG_RE =
  /(?<![=/)\p{L}\p{M}\p{N}_])#([\p{L}\p{M}\p{N}_\u00b7\u30fb\u200c]*[\p{L}\p{M}_\u00b7\u30fb\u200c][\p{L}\p{M}\p{N}_\u00b7\u30fb\u200c]*)/gu;

/**
 * A domain may carry a port (`@bob@localhost:3001`): servers told apart by their port (tests,
 * development) are different domains to Gannet, unlike Mastodon, which has no ports in handles.
 */
const MENTION_RE =
  /(?<![=/\p{L}\p{N}_])@([a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_])?)(?:@([\p{L}\p{N}_.-]+[\p{L}\p{N}_](?::\d{1,5}(?!\d))?))?/giu;

const TRAILING_PUNCT = /[.,:;!?'"\u2019\u201d*]$/;

/** Drops trailing punctuation and unbalanced closing brackets that belong to the sentence, not the URL. */
function trimUrl(raw: string): string {
  let url = raw;
  for (;;) {
    if (TRAILING_PUNCT.test(url)) {
      url = url.slice(0, -1);
      continue;
    }
    const last = url.at(-1);
    const pairs: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
    if (last && pairs[last]) {
      const open = url.split(pairs[last]).length - 1;
      const close = url.split(last).length - 1;
      if (close > open) {
        url = url.slice(0, -1);
        continue;
      }
    }
    return url;
  }
}

function validUrl(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === "http:" || u.protocol === "https:") return u.hostname.length > 0 && !u.hostname.startsWith(".");
    return url.length > u.protocol.length + 1;
  } catch {
    return false;
  }
}

function overlaps(taken: TextEntity[], start: number, end: number): boolean {
  return taken.some((e) => start < e.end && end > e.start);
}

/** URLs, hashtags and mentions in `text`, in order, never overlapping (URLs win). */
export function extractEntities(text: string): TextEntity[] {
  const out: TextEntity[] = [];
  for (const m of text.matchAll(URL_RE)) {
    const url = trimUrl(m[0]);
    if (!validUrl(url)) continue;
    out.push({ kind: "url", start: m.index, end: m.index + url.length, url });
  }
  for (const m of text.matchAll(HASHTAG_RE)) {
    const end = m.index + m[0].length;
    if (!overlaps(out, m.index, end)) out.push({ kind: "hashtag", start: m.index, end, tag: m[1] });
  }
  for (const m of text.matchAll(MENTION_RE)) {
    const end = m.index + m[0].length;
    if (!overlaps(out, m.index, end)) {
      out.push({ kind: "mention", start: m.index, end, username: m[1], domain: m[2] ?? null });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The mentions of `text` as (username, domain) pairs, for loading their accounts before rendering. */
export function extractMentions(text: string): { username: string; domain: string | null }[] {
  return extractEntities(text).flatMap((e) =>
    e.kind === "mention" ? [{ username: e.username, domain: e.domain }] : [],
  );
}
