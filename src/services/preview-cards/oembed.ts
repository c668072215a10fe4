import type sanitizeHtml from "sanitize-html";
import type { AppContext } from "../../context.ts";
import { fetchBytes, RemoteFetchError } from "../remote/fetch-bytes.ts";

/** What an oEmbed provider says about a page (oembed.com), checked and made safe. */
export interface OEmbed {
  type: "photo" | "video" | "rich" | "link";
  title: string;
  authorName: string;
  authorUrl: string;
  providerName: string;
  providerUrl: string;
  /** Sanitised embed HTML (video and rich only). */
  html: string;
  width: number;
  height: number;
  /** The photo itself, or the thumbnail. */
  image: string | undefined;
}

const MAX_OEMBED_BYTES = 64 * 1024;
const OEMBED_TIMEOUT_MS = 10_000;

/**
 * Mastodon's allow list for embed HTML (Sanitize::Config::MASTODON_OEMBED): players only, with
 * http(s) sources; no script, no style, no event handler.
 */
const EMBED_HTML: sanitizeHtml.IOptions = {
  allowedTags: ["audio", "embed", "iframe", "source", "video"],
  allowedAttributes: {
    audio: ["controls"],
    embed: ["height", "src", "type", "width"],
    iframe: ["allowfullscreen", "frameborder", "height", "scrolling", "src", "width", "allow"],
    source: ["src", "type"],
    video: ["controls", "height", "loop", "width"],
  },
  allowedSchemes: ["http", "https"],
  allowedSchemesAppliedToAttributes: ["src"],
  allowProtocolRelative: false,
};

const text = (v: unknown, max = 250): string => (typeof v === "string" ? v.trim().slice(0, max) : "");
const int = (v: unknown): number => {
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n > 0 && n < 100_000 ? Math.round(n) : 0;
};
const httpUrl = (v: unknown): string | undefined => {
  if (typeof v !== "string") return undefined;
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
};

/** The JSON oEmbed answer at `url` (a page's `application/json+oembed` link), or undefined. */
export async function fetchOEmbed(ctx: AppContext, url: string): Promise<OEmbed | undefined> {
  let data: Record<string, unknown>;
  try {
    const body = await fetchBytes(ctx, url, {
      maxBytes: MAX_OEMBED_BYTES,
      timeoutMs: OEMBED_TIMEOUT_MS,
      accept: "application/json",
    });
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body.bytes));
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    data = parsed as Record<string, unknown>;
  } catch (e) {
    if (e instanceof RemoteFetchError || e instanceof SyntaxError) return undefined;
    throw e;
  }
  const type = data.type;
  if (type !== "photo" && type !== "video" && type !== "rich" && type !== "link") return undefined;
  // sanitize-html (with postcss) is loaded on the first player, not with the job handlers.
  const sanitize = type === "video" || type === "rich" ? (await import("sanitize-html")).default : undefined;
  const html = sanitize ? sanitize(text(data.html, 10_000), EMBED_HTML).trim() : "";
  // A player without its HTML, or a photo without its URL, is no oEmbed answer (as Mastodon judges).
  if ((type === "video" || type === "rich") && html === "") return undefined;
  const photo = type === "photo" ? httpUrl(data.url) : undefined;
  if (type === "photo" && !photo) return undefined;
  return {
    type,
    title: text(data.title),
    authorName: text(data.author_name),
    authorUrl: httpUrl(data.author_url) ?? "",
    providerName: text(data.provider_name),
    providerUrl: httpUrl(data.provider_url) ?? "",
    html,
    width: int(data.width),
    height: int(data.height),
    image: photo ?? httpUrl(data.thumbnail_url),
  };
}
