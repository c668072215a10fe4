/**
 * The web client's renderer: Mastodon API entities (the JSON `/api/v1` answers) to HTML. The
 * same functions run on the server for a page's first render and in the browser for what arrives
 * later (more pages, streaming events): `assets/client-render-js.ts` serves their source text as
 * `/assets/client-render.js`. So they must stay self-contained: no imports at run time (type
 * imports are fine), no module-level values, only each other and the standard library. Every
 * text is escaped with `esc`; only `content` and `note` (sanitised by the server) go in as HTML.
 *
 * The markup is a contract the client's scripts rely on (docs/web-client.md):
 * - a post is `<article class="status" data-id="ID">` (the post shown: for a boost, the boosted
 *   post; the boost's own id is `data-wrapper-id`), with `data-account-id`, `data-acct`,
 *   `data-visibility`, `data-url`, and `data-own` when it is the viewer's;
 * - its action buttons carry `data-action` (`reply`, `reblog`, `favourite`, `bookmark`,
 *   `quote`, `more`) and `aria-pressed` for the toggles, with counts in `.count`;
 * - a poll that can be voted on is `<form class="poll" data-poll-id="ID">`.
 */

/** An account as the API serializes it (the fields the renderer reads). */
export interface RAccount {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  avatar: string;
  avatar_static?: string;
  url?: string;
  bot?: boolean;
  locked?: boolean;
  note?: string;
  emojis?: REmoji[];
  followers_count?: number;
  following_count?: number;
  statuses_count?: number;
}

export interface REmoji {
  shortcode: string;
  url: string;
  static_url?: string;
}

export interface RMedia {
  id: string;
  type: string;
  url: string | null;
  preview_url: string | null;
  remote_url?: string | null;
  description: string | null;
  meta?: { original?: { width?: number; height?: number }; small?: { width?: number; height?: number } } | null;
}

export interface RPoll {
  id: string;
  expired: boolean;
  expires_at: string | null;
  multiple: boolean;
  votes_count: number;
  voters_count?: number | null;
  voted?: boolean;
  own_votes?: number[];
  options: { title: string; votes_count: number | null }[];
  emojis?: REmoji[];
}

export interface RFilterResult {
  filter: { id: string; title: string; filter_action: string };
}

export interface RStatus {
  id: string;
  created_at: string;
  edited_at?: string | null;
  in_reply_to_id: string | null;
  in_reply_to_account_id: string | null;
  sensitive: boolean;
  spoiler_text: string;
  visibility: string;
  language: string | null;
  url: string | null;
  uri: string;
  content: string;
  account: RAccount;
  reblog: RStatus | null;
  media_attachments: RMedia[];
  mentions?: { id: string; acct: string; username: string; url: string }[];
  emojis?: REmoji[];
  poll: RPoll | null;
  replies_count: number;
  reblogs_count: number;
  favourites_count: number;
  favourited?: boolean;
  reblogged?: boolean;
  bookmarked?: boolean;
  muted?: boolean;
  pinned?: boolean;
  filtered?: RFilterResult[];
  quote?: { state: string; quoted_status?: RStatus | null } | null;
}

/** What the renderer knows of the page: the labels (`client.*` texts) and the viewer. */
export interface ClientView {
  /** The `client.*` texts of the page's locale, by key. */
  l: Record<string, string>;
  /** The viewer's account id. */
  me: string;
  /** The filter context of the list being shown (`home`, `public`, `notifications`, `thread`, `account`). */
  context?: string;
}

/** Escapes text for HTML (element content and quoted attributes). */
export function esc(s: unknown): string {
  return String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A label with `{name}` placeholders filled (values escaped; the label itself is escaped too). */
export function lbl(v: ClientView, key: string, vars?: Record<string, string | number>): string {
  const text = v.l[key] ?? key;
  return esc(text).replace(/\{(\w+)\}/g, (m, name) => (vars && name in vars ? esc(vars[name]) : m));
}

/** A counted label: `key.one` for 1, `key.other` otherwise, with `{count}` filled. */
export function plural(v: ClientView, key: string, count: number): string {
  return lbl(v, `${key}.${count === 1 ? "one" : "other"}`, { count });
}

/**
 * `:shortcode:` in already-escaped text or sanitised HTML replaced by the emoji's image (only
 * shortcodes the entity lists; outside tags, since shortcodes never hold `<` or `"`).
 */
export function emojify(escaped: string, emojis: REmoji[] | undefined): string {
  if (!emojis || emojis.length === 0) return escaped;
  const byCode: Record<string, REmoji> = {};
  for (const e of emojis) byCode[e.shortcode] = e;
  return escaped.replace(/:([A-Za-z0-9_]{2,}):/g, (m, code) => {
    const e = byCode[code];
    return e
      ? `<img class="emoji" src="${esc(e.url)}" alt=":${esc(code)}:" title=":${esc(code)}:" width="20" height="20">`
      : m;
  });
}

/** A short, stable date for a timestamp (the browser may replace it with a relative one). */
export function timeTag(iso: string, href: string): string {
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  return `<a class="time" href="${esc(href)}"><time datetime="${esc(iso)}">${esc(text)}</time></a>`;
}

/** An account's display name (or username), escaped with its emojis. */
export function nameOf(a: RAccount): string {
  return emojify(esc(a.display_name || a.username), a.emojis);
}

/** The page of an account in the web client. */
export function accountPath(a: { id: string }): string {
  return `/web/accounts/${encodeURIComponent(a.id)}`;
}

/** The page of a post (its thread) in the web client. */
export function statusPath(s: { id: string }): string {
  return `/web/statuses/${encodeURIComponent(s.id)}`;
}

/** Avatar, name and handle of an account, linked to its page. */
export function accountLine(a: RAccount, size: number): string {
  return `<a class="account-line" href="${esc(accountPath(a))}"><img class="avatar" src="${esc(a.avatar)}" alt="" width="${size}" height="${size}" loading="lazy"><span class="names"><bdi class="display-name">${nameOf(a)}</bdi> <span class="acct">@${esc(a.acct)}</span></span></a>`;
}

/** One attachment, with its description as `alt` and as a visible "ALT" note. */
export function mediaItem(m: RMedia, v: ClientView): string {
  const src = m.url ?? m.remote_url ?? null;
  if (src === null) return `<li class="media-missing">${lbl(v, "client.media_missing")}</li>`;
  const alt = m.description ?? "";
  const altNote = alt ? `<details class="alt"><summary>ALT</summary><p>${esc(alt)}</p></details>` : "";
  const d = m.meta?.small ?? m.meta?.original;
  const dims = d?.width && d.height ? ` width="${d.width}" height="${d.height}"` : "";
  if (m.type === "image") {
    return `<li><a href="${esc(src)}" target="_blank" rel="noopener"><img src="${esc(m.preview_url ?? src)}" alt="${esc(alt)}"${dims} loading="lazy"></a>${altNote}</li>`;
  }
  if (m.type === "gifv") {
    return `<li><video src="${esc(src)}" autoplay loop muted playsinline aria-label="${esc(alt)}"></video>${altNote}</li>`;
  }
  if (m.type === "video") {
    return `<li><video src="${esc(src)}" controls preload="none" aria-label="${esc(alt)}"${m.preview_url ? ` poster="${esc(m.preview_url)}"` : ""}></video>${altNote}</li>`;
  }
  if (m.type === "audio") {
    return `<li><audio src="${esc(src)}" controls preload="none" aria-label="${esc(alt)}"></audio>${altNote}</li>`;
  }
  return `<li><a href="${esc(src)}" target="_blank" rel="noopener">${esc(alt || src)}</a></li>`;
}

/** A post's media; sensitive media behind a click. */
export function mediaBlock(s: RStatus, v: ClientView): string {
  if (s.media_attachments.length === 0) return "";
  const list = `<ul class="media media-${Math.min(s.media_attachments.length, 4)}">${s.media_attachments.map((m) => mediaItem(m, v)).join("")}</ul>`;
  if (!s.sensitive) return list;
  return `<details class="sensitive"><summary>${lbl(v, "client.sensitive")} <span class="reveal">${lbl(v, "client.show_media")}</span></summary>${list}</details>`;
}

/** A poll: a form to vote while it is open and the viewer has not voted; results otherwise. */
export function pollBlock(s: RStatus, v: ClientView): string {
  const p = s.poll;
  if (!p) return "";
  const total = p.multiple ? (p.voters_count ?? p.votes_count) : p.votes_count;
  const footer = `<p class="poll-footer">${plural(v, "client.poll_votes", p.votes_count)}${p.expired ? ` · ${lbl(v, "client.poll_closed")}` : ""}</p>`;
  const canVote = !p.expired && !p.voted && s.account.id !== v.me;
  if (canVote) {
    const type = p.multiple ? "checkbox" : "radio";
    const options = p.options
      .map(
        (o, i) =>
          `<li><label><input type="${type}" name="choices" value="${i}"> ${emojify(esc(o.title), p.emojis)}</label></li>`,
      )
      .join("");
    return `<form class="poll" data-poll-id="${esc(p.id)}"><ul>${options}</ul><button type="submit">${lbl(v, "client.poll_vote")}</button>${footer}</form>`;
  }
  const own = p.own_votes ?? [];
  const rows = p.options
    .map((o, i) => {
      const votes = o.votes_count ?? 0;
      const pct = total > 0 ? Math.round((votes / total) * 100) : 0;
      return `<li${own.includes(i) ? ' class="own"' : ""}><span class="pct">${pct}%</span> ${emojify(esc(o.title), p.emojis)}<progress value="${pct}" max="100" aria-hidden="true"></progress></li>`;
    })
    .join("");
  return `<div class="poll results" data-poll-id="${esc(p.id)}"><ul>${rows}</ul>${footer}</div>`;
}

/** The text of a post, behind its content warning when it has one (with its media and poll). */
export function statusBody(s: RStatus, v: ClientView): string {
  const lang = s.language ? ` lang="${esc(s.language)}"` : "";
  const inner = `<div class="content"${lang}>${emojify(s.content, s.emojis)}</div>${mediaBlock(s, v)}${pollBlock(s, v)}${quoteBlock(s, v)}`;
  if (!s.spoiler_text) return inner;
  return `<details class="cw"><summary><span class="spoiler"${lang}>${emojify(esc(s.spoiler_text), s.emojis)}</span> <span class="reveal">${lbl(v, "client.show_more")}</span></summary>${inner}</details>`;
}

/** The post a post quotes (Mastodon 4.5 quotes), when the quote was accepted. */
export function quoteBlock(s: RStatus, v: ClientView): string {
  const q = s.quote;
  if (q?.state !== "accepted" || !q.quoted_status) return "";
  const inner = q.quoted_status;
  return `<blockquote class="quote" aria-label="${lbl(v, "client.quoted_post")}">${accountLine(inner.account, 24)}<div class="content">${emojify(inner.spoiler_text ? esc(inner.spoiler_text) : inner.content, inner.emojis)}</div>${timeTag(inner.created_at, statusPath(inner))}</blockquote>`;
}

/** One action button of a post. */
export function actionButton(
  action: string,
  label: string,
  count: number | null,
  pressed: boolean | null,
  disabled: boolean,
): string {
  const state = pressed === null ? "" : ` aria-pressed="${pressed ? "true" : "false"}"`;
  const off = disabled ? " disabled" : "";
  const n = count === null ? "" : `<span class="count">${count > 0 ? count : ""}</span>`;
  return `<button type="button" class="action action-${action}" data-action="${action}" aria-label="${label}" title="${label}"${state}${off}><span class="icon" aria-hidden="true"></span>${n}</button>`;
}

/**
 * A post as the client shows it, or "" when a `hide` filter matched it. A `warn` filter puts it
 * behind a notice naming the filter.
 */
export function renderStatus(top: RStatus, v: ClientView): string {
  const s = top.reblog ?? top;
  const filters = (top.filtered ?? []).concat(top.reblog?.filtered ?? []);
  if (filters.some((f) => f.filter.filter_action === "hide")) return "";
  const boostedBy = top.reblog
    ? `<p class="boosted-by"><a href="${esc(accountPath(top.account))}">${lbl(v, "client.boosted_by", { name: top.account.display_name || top.account.username })}</a></p>`
    : "";
  const own = s.account.id === v.me;
  const canBoost = s.visibility === "public" || s.visibility === "unlisted" || (own && s.visibility === "private");
  const actions = [
    actionButton("reply", lbl(v, "client.reply"), s.replies_count, null, false),
    actionButton(
      "reblog",
      lbl(v, s.reblogged ? "client.unboost" : "client.boost"),
      s.reblogs_count,
      !!s.reblogged,
      !canBoost,
    ),
    actionButton(
      "favourite",
      lbl(v, s.favourited ? "client.unfavourite" : "client.favourite"),
      s.favourites_count,
      !!s.favourited,
      false,
    ),
    actionButton(
      "bookmark",
      lbl(v, s.bookmarked ? "client.unbookmark" : "client.bookmark"),
      null,
      !!s.bookmarked,
      false,
    ),
    actionButton("quote", lbl(v, "client.quote"), null, null, s.visibility !== "public" && s.visibility !== "unlisted"),
    actionButton("more", lbl(v, "client.more"), null, null, false),
  ].join("");
  const edited = s.edited_at
    ? ` <span class="edited" title="${esc(s.edited_at)}">${lbl(v, "client.edited")}</span>`
    : "";
  const wrapper = top.reblog ? ` data-wrapper-id="${esc(top.id)}"` : "";
  const article = `<article class="status visibility-${esc(s.visibility)}" data-id="${esc(s.id)}"${wrapper} data-account-id="${esc(s.account.id)}" data-acct="${esc(s.account.acct)}" data-visibility="${esc(s.visibility)}" data-url="${esc(s.url ?? s.uri)}"${own ? " data-own" : ""} tabindex="0">${boostedBy}<header>${accountLine(s.account, 46)}<span class="meta"><span class="visibility" title="${lbl(v, `client.visibility.${s.visibility}`)}">${lbl(v, `client.visibility.${s.visibility}`)}</span> ${timeTag(s.created_at, statusPath(s))}${edited}</span></header>${statusBody(s, v)}<footer class="status-actions">${actions}</footer></article>`;
  const warned = filters.filter((f) => f.filter.filter_action === "warn");
  if (warned.length === 0) return article;
  const titles = warned.map((f) => f.filter.title).join(", ");
  return `<details class="filtered"><summary>${lbl(v, "client.filtered", { title: titles })} <span class="reveal">${lbl(v, "client.show_anyway")}</span></summary>${article}</details>`;
}

/** A list of posts (each in a list item), or the empty message. */
export function renderStatuses(list: RStatus[], v: ClientView): string {
  const items = list
    .map((s) => {
      const html = renderStatus(s, v);
      return html ? `<li data-id="${esc(s.id)}">${html}</li>` : "";
    })
    .join("");
  return items || `<li class="empty">${lbl(v, "client.empty")}</li>`;
}
