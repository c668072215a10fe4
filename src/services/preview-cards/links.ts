import { extractEntities } from "../../lib/text/entities.ts";
import { decodeEntities } from "./opengraph.ts";

/**
 * The link of a status that gets a preview card, as Mastodon chooses it: the first http(s) link
 * that is not a mention or a hashtag and does not point at this server. A local status's links
 * are read from its source text; a remote one's from its HTML, where mentions and hashtags are
 * links too (microformats: `rel="tag"`, `class="u-url mention"`, `h-card`, or the href of a
 * mentioned account).
 */
export function cardLinkOf(
  status: { local: boolean; text: string; content: string },
  opts: { localHosts: readonly string[]; mentionUrls: ReadonlySet<string> },
): string | undefined {
  const candidates = status.local ? sourceLinks(status.text) : htmlLinks(status.content, opts.mentionUrls);
  for (const raw of candidates) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    if (url.hostname === "" || opts.localHosts.includes(url.host.toLowerCase())) continue;
    return url.href;
  }
  return undefined;
}

function sourceLinks(text: string): string[] {
  return extractEntities(text.replace(/\r\n?/g, "\n")).flatMap((e) => (e.kind === "url" ? [e.url] : []));
}

function htmlLinks(html: string, mentionUrls: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const attrs = m[1] ?? "";
    const attr = (name: string) => {
      const a = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
      return a ? decodeEntities(a[1] ?? a[2] ?? a[3] ?? "") : "";
    };
    const href = attr("href").trim();
    if (href === "") continue;
    const rel = attr("rel").toLowerCase().split(/\s+/);
    const cls = attr("class");
    const label = decodeEntities((m[2] ?? "").replace(/<[^>]*>/g, "")).trim();
    if (rel.includes("tag") || /\b(u-url|h-card|mention|hashtag)\b/.test(cls)) continue;
    if (mentionUrls.has(href) || label.startsWith("#") || label.startsWith("@")) continue;
    out.push(href);
  }
  return out;
}
