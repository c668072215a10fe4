import type { Context, Hono } from "hono";
import type { AppContext } from "../../../context.ts";
import { GANNET_VERSION } from "../../../lib/version.ts";
import { MISSING_AVATAR } from "../../../serializers/account.ts";
import { serializeMediaAttachment } from "../../../serializers/media-attachment.ts";
import { tagUrl } from "../../../serializers/status.ts";
import { accountFeed, type FeedItem, feedLimit, tagFeed } from "../../../services/web/feeds.ts";
import type { HonoEnv } from "../../types.ts";
import { DEFAULT_WEB_LOCALE, translator } from "../i18n/index.ts";

/**
 * RSS 2.0 feeds of a local profile (`/@user.rss`) and of a hashtag (`/tags/:name.rss`), written
 * by string building. Each post's `<item>` is kept by its feed item (services/web/feeds.ts), which
 * is the same object while the post's kept render is, so a warm feed writes only its channel.
 */

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
// Characters XML 1.0 does not allow (controls other than tab, newline and return; lone surrogates).
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML forbids
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for XML element content or a quoted attribute. */
export function escapeXml(s: string): string {
  return s.replace(NOT_XML, "").replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]);
}

const RSS_TYPE = "application/rss+xml; charset=utf-8";
/** Feeds may be cached by anyone for a minute (Mastodon's account feed). */
const CACHE_CONTROL = "public, max-age=60";

const texts = translator(DEFAULT_WEB_LOCALE);

/** The item's text: the content warning first, the post's (sanitised) HTML, then a poll's options. */
function description(item: FeedItem): string {
  const s = item.status;
  let out = "";
  if (s.spoilerText !== "") {
    out += `<p><strong>${escapeXml(texts("feeds.rss.content_warning"))}</strong> ${escapeXml(s.spoilerText)}</p><hr />`;
  }
  out += s.content;
  if (item.pollOptions && item.pollOptions.length > 0) {
    out += `<ul>${item.pollOptions.map((o) => `<li>${escapeXml(o)}</li>`).join("")}</ul>`;
  }
  return out;
}

const kept = new WeakMap<FeedItem, string>();

function mediaType(m: FeedItem["media"][number]): string {
  if (m.fileContentType) return m.fileContentType;
  if (m.type === "image") return "image/jpeg";
  if (m.type === "gifv" || m.type === "video") return "video/mp4";
  if (m.type === "audio") return "audio/mpeg";
  return "application/octet-stream";
}

/** One `<item>`: link and guid the post's URL, its date, description, media and hashtags. */
function itemXml(ctx: AppContext, item: FeedItem): string {
  const done = kept.get(item);
  if (done !== undefined) return done;
  const s = item.status;
  const base = ctx.config.baseUrl;
  const url = escapeXml(s.url ?? s.uri);
  let out = `<item><link>${url}</link><guid isPermaLink="true">${url}</guid><pubDate>${new Date(s.createdAt).toUTCString()}</pubDate>`;
  out += `<description>${escapeXml(description(item))}</description>`;
  let enclosed = false;
  for (const m of item.media) {
    const view = serializeMediaAttachment(m, (key) => ctx.blobs.url(key), base);
    const src = typeof view.url === "string" ? view.url : undefined;
    if (src === undefined) continue;
    const type = escapeXml(mediaType(m));
    const length = m.fileSize ?? 0;
    // RSS 2.0 readers take one enclosure per item: the first attachment. Media RSS lists them all.
    if (!enclosed) {
      out += `<enclosure url="${escapeXml(src)}" type="${type}" length="${length}"/>`;
      enclosed = true;
    }
    const medium = m.type === "gifv" ? "image" : m.type === "unknown" ? "document" : m.type;
    out += `<media:content url="${escapeXml(src)}" type="${type}" fileSize="${length}" medium="${escapeXml(medium)}">`;
    out += `<media:rating scheme="urn:simple">${s.sensitive ? "adult" : "nonadult"}</media:rating>`;
    if (m.description) out += `<media:description type="plain">${escapeXml(m.description)}</media:description>`;
    if (typeof view.preview_url === "string") out += `<media:thumbnail url="${escapeXml(view.preview_url)}"/>`;
    out += "</media:content>";
  }
  for (const t of item.tags) out += `<category>${escapeXml(t.displayName)}</category>`;
  out += "</item>";
  kept.set(item, out);
  return out;
}

function channelXml(
  ctx: AppContext,
  c: {
    title: string;
    description: string;
    link: string;
    self: string;
    image?: string;
    items: FeedItem[];
  },
): string {
  const newest = c.items[0]?.status.createdAt;
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n';
  out += '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">';
  out += `<channel><title>${escapeXml(c.title)}</title><description>${escapeXml(c.description)}</description>`;
  out += `<link>${escapeXml(c.link)}</link>`;
  out += `<atom:link href="${escapeXml(c.self)}" rel="self" type="application/rss+xml"/>`;
  if (c.image) {
    out += `<image><url>${escapeXml(c.image)}</url><title>${escapeXml(c.title)}</title><link>${escapeXml(c.link)}</link></image>`;
  }
  if (newest) out += `<lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>`;
  out += `<generator>Gannet ${escapeXml(GANNET_VERSION)}</generator>`;
  for (const item of c.items) out += itemXml(ctx, item);
  out += "</channel></rss>\n";
  return out;
}

function rss(c: Context<HonoEnv>, body: string): Response {
  return c.body(body, 200, {
    "Content-Type": RSS_TYPE,
    "Cache-Control": CACHE_CONTROL,
    "X-Content-Type-Options": "nosniff",
  });
}

function notFound(c: Context<HonoEnv>): Response {
  return c.body(
    `<?xml version="1.0" encoding="UTF-8"?>\n<error>${escapeXml(texts("common.not_found"))}</error>\n`,
    404,
    {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": CACHE_CONTROL,
    },
  );
}

export function rssRoutes(app: Hono<HonoEnv>): void {
  app.get("/:feed{@[A-Za-z0-9_]+\\.rss}", async (c) => {
    const ctx = c.env.ctx;
    const username = c.req.param("feed").slice(1, -4);
    const tag = c.req.query("tag");
    const feed = await accountFeed(ctx, username, { tag, limit: feedLimit(c.req.query("limit")) });
    if (!feed) return notFound(c);
    const { account } = feed;
    const base = ctx.config.baseUrl;
    const profile = `${base}/@${account.username}`;
    const tagged = feed.tag ? `?tag=${encodeURIComponent(feed.tag.name)}` : "";
    return rss(
      c,
      channelXml(ctx, {
        title: account.displayName || account.username,
        description: texts("feeds.rss.account", { acct: `${account.username}@${ctx.config.localDomain}` }),
        link: profile,
        self: `${profile}.rss${tagged}`,
        image: account.avatarPath ? ctx.blobs.url(account.avatarPath) : `${base}${MISSING_AVATAR}`,
        items: feed.items,
      }),
    );
  });

  app.get("/tags/:feed{[^/]+\\.rss}", async (c) => {
    const ctx = c.env.ctx;
    const name = c.req.param("feed").slice(0, -4);
    const local = /^(1|true|on)$/i.test(c.req.query("local") ?? "");
    const feed = await tagFeed(ctx, name, { local, limit: feedLimit(c.req.query("limit")) });
    if (!feed) return notFound(c);
    const link = tagUrl(ctx.config.baseUrl, feed.tag.name);
    return rss(
      c,
      channelXml(ctx, {
        title: `#${feed.tag.displayName}`,
        description: texts("feeds.rss.tag", { hashtag: feed.tag.displayName }),
        link,
        self: `${link}.rss${local ? "?local=true" : ""}`,
        items: feed.items,
      }),
    );
  });
}
