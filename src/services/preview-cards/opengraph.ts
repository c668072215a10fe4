/**
 * What a page says about itself for a preview card: OpenGraph (`og:*`), then Twitter's and plain
 * HTML metadata as fallbacks, in the order Mastodon's link details extractor prefers them. A
 * small scanner for `<meta>`, `<link>`, `<title>` and `<html lang>`, not a full HTML parser:
 * metadata lives in the head, and a page is read up to its `</head>` only.
 */

export interface PageDetails {
  title: string;
  description: string;
  /** Absolute http(s) URL of the image, if any. */
  image: string | undefined;
  imageDescription: string;
  siteName: string;
  authorName: string;
  authorUrl: string;
  publishedAt: string | undefined;
  language: string | undefined;
  /** The page's JSON oEmbed endpoint (`<link rel="alternate" type="application/json+oembed">`). */
  oembed: string | undefined;
}

const TITLE_MAX = 250;
const DESCRIPTION_MAX = 1000;

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Decodes character references (named ones for the common few, all numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

const ATTR_RE = /([^\s"'=<>/`]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** The attributes of one tag's text (after its name), names lower-cased. */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTR_RE)) {
    const name = (m[1] ?? "").toLowerCase();
    if (!out.has(name)) out.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ""));
  }
  return out;
}

const squash = (s: string): string => s.replace(/\s+/g, " ").trim();
const cut = (s: string, max: number): string => {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : s;
};

function absoluteHttp(value: string | undefined, base: string): string | undefined {
  if (!value) return undefined;
  try {
    const u = new URL(value.trim(), base);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text without comments, scripts and styles (they hold no metadata but may hold text that
 * looks like tags), in one linear pass: a page full of unclosed `<script` costs no more than
 * its length (a lazy regular expression would rescan the rest of the page for each).
 */
function withoutOpaqueBlocks(html: string): string {
  const lower = html.toLowerCase();
  const opener = /<!--|<script\b|<style\b/g;
  let out = "";
  let at = 0;
  for (;;) {
    opener.lastIndex = at;
    const found = opener.exec(lower);
    if (!found) return out + html.slice(at);
    const start = found.index;
    out += html.slice(at, start);
    const closer = lower.startsWith("<!--", start)
      ? "-->"
      : lower.startsWith("<script", start)
        ? "</script"
        : "</style";
    const end = lower.indexOf(closer, start + 4);
    if (end < 0) return out;
    at = end + closer.length;
  }
}

/**
 * The `<meta>`, `<link>`, `<title>` and `<html>` tags of a head: name, attribute text and where
 * the tag ends. Linear: a tag left open ends the scan (a `[^>]*` pattern would rescan the rest
 * of the page for each unclosed tag).
 */
function* tags(text: string): Generator<{ name: string; attrs: string; end: number }> {
  const opener = /<(meta|link|title|html)\b/gi;
  for (;;) {
    const found = opener.exec(text);
    if (!found) return;
    const close = text.indexOf(">", opener.lastIndex);
    if (close < 0) return;
    yield { name: (found[1] ?? "").toLowerCase(), attrs: text.slice(opener.lastIndex, close), end: close + 1 };
    opener.lastIndex = close + 1;
  }
}

/** The details of an HTML page fetched from `pageUrl`. */
export function parsePageDetails(html: string, pageUrl: string): PageDetails {
  const headEnd = html.search(/<\/head\s*>|<body[\s>]/i);
  const head = headEnd >= 0 ? html.slice(0, headEnd) : html.slice(0, 256 * 1024);
  const meta = new Map<string, string>();
  let title: string | undefined;
  let lang: string | undefined;
  let canonicalAuthor: string | undefined;
  let oembed: string | undefined;
  const text = withoutOpaqueBlocks(head);
  for (const m of tags(text)) {
    const tag = m.name;
    const attrs = attributes(m.attrs);
    if (tag === "meta") {
      const key = (attrs.get("property") ?? attrs.get("name") ?? attrs.get("itemprop") ?? "").toLowerCase();
      const content = attrs.get("content");
      if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
    } else if (tag === "title" && title === undefined) {
      const end = text.indexOf("</", m.end);
      title = decodeEntities(text.slice(m.end, end >= 0 ? end : undefined));
    } else if (tag === "html") {
      lang = attrs.get("lang");
    } else if (tag === "link") {
      const rel = (attrs.get("rel") ?? "").toLowerCase().split(/\s+/);
      if (rel.includes("author")) canonicalAuthor = attrs.get("href");
      if (rel.includes("alternate") && (attrs.get("type") ?? "").toLowerCase() === "application/json+oembed") {
        oembed ??= attrs.get("href");
      }
    }
  }
  const first = (...keys: string[]): string | undefined => {
    for (const k of keys) {
      const v = meta.get(k);
      if (v !== undefined && v.trim() !== "") return v;
    }
    return undefined;
  };
  const author = first("author", "article:author", "twitter:creator") ?? "";
  const authorIsUrl = absoluteHttp(author, pageUrl) !== undefined && /^https?:\/\//i.test(author.trim());
  const published = first("article:published_time", "og:published_time", "datepublished");
  const publishedMs = published ? Date.parse(published) : Number.NaN;
  const language = (lang ?? first("og:locale"))?.trim().replace("_", "-").split("-")[0]?.toLowerCase();
  return {
    title: cut(squash(first("og:title", "twitter:title") ?? title ?? ""), TITLE_MAX),
    description: cut(squash(first("og:description", "twitter:description", "description") ?? ""), DESCRIPTION_MAX),
    image: absoluteHttp(
      first("og:image:secure_url", "og:image", "og:image:url", "twitter:image", "twitter:image:src"),
      pageUrl,
    ),
    imageDescription: cut(squash(first("og:image:alt", "twitter:image:alt") ?? ""), DESCRIPTION_MAX),
    siteName: cut(squash(first("og:site_name", "application-name") ?? ""), TITLE_MAX),
    authorName: authorIsUrl ? "" : cut(squash(author), TITLE_MAX),
    authorUrl: absoluteHttp(authorIsUrl ? author : canonicalAuthor, pageUrl) ?? "",
    publishedAt: Number.isFinite(publishedMs) ? new Date(publishedMs).toISOString() : undefined,
    language: language && /^[a-z]{2,3}$/.test(language) ? language : undefined,
    oembed: absoluteHttp(oembed, pageUrl),
  };
}
