import type { WebEmoji } from "../../../services/web/entities.ts";
import { escapeHtml, html, SafeHtml } from "../pages/html.ts";

/**
 * Small helpers of the public pages' components: custom emojis as images, dates, plain text of
 * HTML, interaction links.
 */

const SHORTCODE = /:([a-zA-Z0-9_]{2,}):/g;

function emojiImg(e: WebEmoji): string {
  const code = escapeHtml(`:${e.shortcode}:`);
  return `<img class="emoji" src="${escapeHtml(e.static_url || e.url)}" alt="${code}" title="${code}" width="20" height="20" draggable="false">`;
}

/** Plain text (a display name, a field name, a spoiler) escaped, its known `:shortcodes:` as images. */
export function emojifyText(text: string, emojis: readonly WebEmoji[]): SafeHtml {
  if (emojis.length === 0 || !text.includes(":")) return html`${text}`;
  const byCode = new Map(emojis.map((e) => [e.shortcode, e]));
  let out = "";
  let last = 0;
  for (const m of text.matchAll(SHORTCODE)) {
    const e = byCode.get(m[1]);
    if (!e) continue;
    out += escapeHtml(text.slice(last, m.index)) + emojiImg(e);
    last = (m.index ?? 0) + m[0].length;
  }
  return new SafeHtml(out + escapeHtml(text.slice(last)));
}

/**
 * HTML the server stores sanitised (a post's content, a bio, a field value), its known
 * `:shortcodes:` as images: only in text between tags, never inside a tag or an attribute.
 */
export function emojifyHtml(sanitised: string, emojis: readonly WebEmoji[]): SafeHtml {
  if (emojis.length === 0 || !sanitised.includes(":")) return new SafeHtml(sanitised);
  const byCode = new Map(emojis.map((e) => [e.shortcode, e]));
  // Tags (quoted attribute values may hold `>`) at odd indexes, text at even ones.
  const parts = sanitised.split(/(<(?:[^>"']|"[^"]*"|'[^']*')*>)/);
  for (let i = 0; i < parts.length; i += 2) {
    parts[i] = parts[i].replace(SHORTCODE, (whole, code: string) => {
      const e = byCode.get(code);
      return e ? emojiImg(e) : whole;
    });
  }
  return new SafeHtml(parts.join(""));
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** The text of sanitised HTML (for descriptions): paragraphs and breaks as spaces, entities decoded. */
export function htmlText(sanitised: string): string {
  return sanitised
    .replace(/<br\s*\/?>|<\/p>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#?[a-z0-9]+);/gi, (whole, name: string) => {
      if (ENTITIES[name]) return ENTITIES[name];
      const n = /^#x([0-9a-f]+)$/i.exec(name) ?? /^#([0-9]+)$/.exec(name);
      if (!n) return whole;
      const code = Number.parseInt(n[1], name[1] === "x" || name[1] === "X" ? 16 : 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** At most `max` characters of `text`, cut at a word with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A date and time in the page's locale (UTC, as the server knows no reader's time zone). */
export function formatDate(iso: string, locale: string, withTime = true): string {
  const key = `${locale}:${withTime}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      dateStyle: "medium",
      timeStyle: withTime ? "short" : undefined,
      timeZone: "UTC",
    });
    formatters.set(key, f);
  }
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : f.format(d);
}

/** A `<time>` element. */
export function timeTag(iso: string, locale: string, withTime = true): SafeHtml {
  return html`<time datetime="${iso}">${formatDate(iso, locale, withTime)}</time>`;
}

export type Interaction = "follow" | "reply" | "reblog" | "favourite";

/** The remote interaction page for an object (it asks the visitor's handle, or acts for a signed-in one). */
export function interactionUrl(type: Interaction, uri: string): string {
  return `/remote_interaction?${new URLSearchParams({ type, uri })}`;
}

/** `@user@domain`, with this server's domain for local accounts. */
export function fullAcct(acct: string, localDomain: string): string {
  return acct.includes("@") ? `@${acct}` : `@${acct}@${localDomain}`;
}
