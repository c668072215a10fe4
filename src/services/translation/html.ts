import { htmlToText } from "../../lib/text/html-text.ts";
import { sanitizeRemoteHtml } from "../../lib/text/remote-html.ts";
import { replaceShortcodes } from "../../lib/text/shortcodes.ts";

/**
 * The markup around a post's texts on their way to a translation backend and back. Both
 * backends translate HTML and leave alone what is marked `translate="no"`: custom emoji
 * shortcodes, mentions and hashtags are so marked (Mastodon's TranslateStatusService does the
 * same), and the marks are taken off again in what comes back.
 */

const KEEP = '<span translate="no">';

/** Wraps each known shortcode of the text nodes of `html` in a `translate="no"` span. */
export function protectShortcodes(html: string, shortcodes: ReadonlySet<string>): string {
  if (shortcodes.size === 0) return html;
  // Odd parts are tags: only the text between them is scanned, never an attribute.
  return html
    .split(/(<[^>]*>)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : replaceShortcodes(part, (code, whole) => (shortcodes.has(code) ? `${KEEP}${whole}</span>` : whole)),
    )
    .join("");
}

/** Marks mention and hashtag links, and h-card wrappers, `translate="no"` where they are not yet. */
export function protectMentionsAndTags(html: string): string {
  return html.replace(/<(a|span)(\s[^>]*)?>/gi, (tag, name: string, attrs = "") => {
    if (/\stranslate\s*=/i.test(attrs)) return tag;
    const classes = (/\sclass\s*=\s*"([^"]*)"/i.exec(attrs)?.[1] ?? "").split(/\s+/);
    const marked =
      name.toLowerCase() === "a"
        ? classes.includes("mention") || classes.includes("hashtag")
        : classes.includes("h-card");
    return marked ? `<${name}${attrs} translate="no">` : tag;
  });
}

/** The HTML sent for a post's content: its rendered HTML with identifiers and emojis protected. */
export function contentSource(html: string, shortcodes: ReadonlySet<string>): string {
  return protectShortcodes(protectMentionsAndTags(html), shortcodes);
}

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Plain text (a content warning, a poll option, a description) as the HTML sent for it. */
export function plainSource(text: string, shortcodes: ReadonlySet<string> = new Set()): string {
  return protectShortcodes(
    text.replace(/[&<>"']/g, (c) => escapes[c] as string),
    shortcodes,
  );
}

/** Takes off the `translate="no"` spans this module added (those with no other attribute). */
function unwrap(html: string): string {
  let out = html;
  // Repeated for spans the backend nested; each pass removes the innermost.
  for (let i = 0; i < 4; i++) {
    const next = out.replace(/<span\s+translate\s*=\s*["']?no["']?\s*>((?:(?!<span[\s>])[\s\S])*?)<\/span>/gi, "$1");
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * A translated content back as post HTML: the marks taken off, and sanitised as remote HTML is,
 * since it comes from another server.
 */
export function translatedContent(html: string): string {
  return sanitizeRemoteHtml(unwrap(html));
}

/** A translated plain text back as text: marks and any other markup dropped, entities decoded. */
export function translatedPlain(html: string): string {
  return htmlToText(unwrap(html));
}
