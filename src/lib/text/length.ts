import { extractEntities } from "./entities.ts";

/** Every URL counts as this many characters, whatever its length (Mastodon's rule). */
export const URL_PLACEHOLDER_LENGTH = 23;

// Made on first use: building a segmenter loads ICU data (about 13 ms at start-up).
let segmenter: Intl.Segmenter | undefined;

/** Grapheme clusters: what a person counts as characters (an emoji with modifiers is one). */
export function graphemeLength(s: string): number {
  let n = 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (const _ of segmenter.segment(s)) n++;
  return n;
}

/** Unicode code points: what Ruby's String#length counts (display names). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * The length Mastodon checks a bio or post against: URLs count 23 characters and remote mentions
 * count only their `@username` part.
 */
export function countableLength(text: string): number {
  let out = "";
  let at = 0;
  for (const e of extractEntities(text)) {
    if (e.kind === "url") out += text.slice(at, e.start) + "x".repeat(URL_PLACEHOLDER_LENGTH);
    else if (e.kind === "mention") out += `${text.slice(at, e.start)}@${e.username}`;
    else continue;
    at = e.end;
  }
  out += text.slice(at);
  return graphemeLength(out);
}
