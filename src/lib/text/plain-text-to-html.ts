import { extractEntities } from "./entities.ts";
import { escapeHtml } from "./escape.ts";

/** A mentioned account the renderer may link to. */
export interface MentionTarget {
  /** Profile URL the mention links to. */
  url: string;
  username: string;
  /** `username` for local accounts, `username@domain` for remote ones. */
  acct: string;
}

export interface RenderOptions {
  /** Paragraphs and line breaks (notes); off for one-line texts such as profile field values. */
  multiline?: boolean;
  /** Adds `me` to links' rel (profile fields, for rel-me verification). */
  relMe?: boolean;
  /** Links hashtags to this URL; without it hashtags stay text. */
  tagUrl?: (tag: string) => string;
  /** Resolves a mention; unknown (or unmentionable) accounts stay text. */
  mention?: (username: string, domain: string | null) => MentionTarget | undefined;
  /** Shows mentions with their domain (Mastodon does in profile fields). */
  withDomains?: boolean;
}

const URL_PREFIX = /^(?:https?:\/\/(?:www\.)?|xmpp:)/;
const DISPLAY_CHARS = 30;

/**
 * A link as Mastodon renders it: the scheme (and `www.`) hidden, the rest cut after 30 characters
 * with the cut-off part hidden, so clients show `example.com/a-long-pa…` but copy the full URL.
 */
export function renderLink(url: string, relMe = false): string {
  const prefix = URL_PREFIX.exec(url)?.[0] ?? "";
  const rest = Array.from(url.slice(prefix.length));
  const display = rest.slice(0, DISPLAY_CHARS).join("");
  const suffix = rest.slice(DISPLAY_CHARS).join("");
  const cutoff = rest.length > DISPLAY_CHARS;
  const rel = relMe ? "nofollow noopener me" : "nofollow noopener";
  return (
    `<a href="${escapeHtml(url)}" target="_blank" rel="${rel}" translate="no">` +
    `<span class="invisible">${escapeHtml(prefix)}</span>` +
    `<span class="${cutoff ? "ellipsis" : ""}">${escapeHtml(display)}</span>` +
    `<span class="invisible">${escapeHtml(suffix)}</span></a>`
  );
}

/** Rails' simple_format: blank-line separated paragraphs, single newlines as `<br />`. */
function paragraphs(html: string): string {
  return html
    .split(/\n\n+/)
    .filter((p) => p.trim() !== "")
    .map((p) => `<p>${p.replace(/([^\n]\n)(?=[^\n])/g, "$1<br />")}</p>`)
    .join("")
    .replace(/\n/g, "");
}

/**
 * Plain text (a bio, a profile field value) to the HTML Mastodon's API serves: everything escaped,
 * links made clickable, hashtags and mentions linked when the options say how.
 */
export function plainTextToHtml(text: string, opts: RenderOptions = {}): string {
  const normalized = text.replace(/\r\n?/g, "\n");
  if (normalized.trim() === "") return "";
  let html = "";
  let at = 0;
  for (const e of extractEntities(normalized)) {
    let rendered: string | undefined;
    if (e.kind === "url") rendered = renderLink(e.url, opts.relMe);
    else if (e.kind === "hashtag" && opts.tagUrl) {
      rendered = `<a href="${escapeHtml(opts.tagUrl(e.tag))}" class="mention hashtag" rel="tag">#<span>${escapeHtml(e.tag)}</span></a>`;
    } else if (e.kind === "mention" && opts.mention) {
      const target = opts.mention(e.username, e.domain);
      if (target) {
        const shown = opts.withDomains ? target.acct : target.username;
        rendered = `<span class="h-card" translate="no"><a href="${escapeHtml(target.url)}" class="u-url mention">@<span>${escapeHtml(shown)}</span></a></span>`;
      }
    }
    if (rendered === undefined) continue;
    html += escapeHtml(normalized.slice(at, e.start)) + rendered;
    at = e.end;
  }
  html += escapeHtml(normalized.slice(at));
  return opts.multiline === false ? html : paragraphs(html);
}
