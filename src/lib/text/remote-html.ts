import { type SanitizeOptions, sanitizeHtml } from "./sanitize-html.ts";

/** URL schemes Mastodon keeps in links of remote HTML (Sanitize::Config::HTTP_PROTOCOLS and friends). */
const LINK_SCHEMES = ["http", "https", "dat", "dweb", "ipfs", "ipns", "ssb", "gopher", "xmpp", "magnet", "gemini"];

/** Classes kept on `a` and `span` (mentions, hashtags, h-cards and the link-shortening spans). */
const KEPT_CLASSES = ["h-card", "mention", "hashtag", "u-url", "invisible", "ellipsis"];

function linkAllowed(href: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href.trim());
  // Relative links are kept as Mastodon keeps them (`:relative`).
  if (!scheme) return !href.trim().startsWith("//");
  return LINK_SCHEMES.includes(scheme[1].toLowerCase());
}

const OPTIONS: SanitizeOptions = {
  allowedTags: [
    "p",
    "br",
    "span",
    "a",
    "del",
    "pre",
    "blockquote",
    "code",
    "b",
    "strong",
    "u",
    "i",
    "em",
    "ul",
    "ol",
    "li",
  ],
  allowedAttributes: {
    a: ["href", "rel", "class", "target"],
    span: ["class"],
    ol: ["start", "reversed"],
    li: ["value"],
  },
  allowedClasses: { a: KEPT_CLASSES, span: KEPT_CLASSES },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // A link with a scheme Mastodon refuses keeps its text, not its target (UNSUPPORTED_HREF_TRANSFORMER).
    a: (_tag, attribs) => {
      const href = attribs.href;
      if (href === undefined || !linkAllowed(href)) return { tagName: "span", attribs: {} };
      const out: Record<string, string> = { href, rel: "nofollow noopener", target: "_blank" };
      if (attribs.class !== undefined) out.class = attribs.class;
      return { tagName: "a", attribs: out };
    },
  },
};

/**
 * Remote HTML (a post's content, a bio, a profile field) reduced to what Mastodon keeps
 * (Sanitize::Config::MASTODON_STRICT): its elements, `ol`'s `start`/`reversed`, `li`'s `value`,
 * the mention/hashtag/h-card classes; headings become a paragraph in bold, as in Mastodon; links
 * open in a new tab with `rel="nofollow noopener"`; everything else goes (scripts and styles with
 * their text).
 */
export function sanitizeRemoteHtml(html: string): string {
  // Headings turn into <p><strong>; the sanitiser below then repairs any nesting this breaks.
  const headings = html.replace(/<h[1-6](?=[\s>/])[^>]*>/gi, "<p><strong>").replace(/<\/h[1-6]\s*>/gi, "</strong></p>");
  return sanitizeHtml(headings, OPTIONS);
}

/** The text of HTML (for search and the `text` column): line breaks and paragraphs as newlines. */
export function htmlToPlainText(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, "\n").replace(/<\/p>\s*<p[^>]*>/gi, "\n\n");
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}
