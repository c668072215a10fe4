import type { WebMedia, WebPoll, WebStatus } from "../../../services/web/entities.ts";
import type { Translate } from "../i18n/index.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { emojifyHtml, emojifyText, fullAcct, interactionUrl, timeTag } from "./format.ts";

/**
 * Shared rendering of posts for the public pages (and any page that shows posts later): a status
 * card with its content warning, media, poll, counts and interaction links. Everything is
 * escaped except the HTML the server stores sanitised (content; see services/web/entities.ts).
 */

/** What the components need to know about the page they are on. */
export interface RenderContext {
  tr: Translate;
  /** This server's domain, to show local accounts as `@user@domain`. */
  localDomain: string;
  /** Embedded on another site: links open in a new tab. */
  embed?: boolean;
}

/** `target` and `rel` for links of an embedded page. */
function linkTarget(rc: RenderContext): SafeHtml {
  return rc.embed ? html` target="_blank" rel="noopener"` : html``;
}

/** Where a post is read: its page here, or its origin for a remote post. */
export function statusHref(s: WebStatus): string {
  return s.url ?? s.uri;
}

function mediaItem(m: WebMedia, rc: RenderContext): SafeHtml {
  const { tr } = rc;
  const alt = m.description ?? "";
  const src = m.url ?? m.remote_url;
  if (src === null) return html`<li class="media-missing">${tr("profiles.media.unavailable")}</li>`;
  switch (m.type) {
    case "image":
      return html`<li><a href="${src}"${linkTarget(rc)}><img src="${m.preview_url ?? src}" alt="${alt || tr("profiles.media.image")}" loading="lazy"${dimensions(m)}></a></li>`;
    case "gifv":
      return html`<li><video src="${src}" autoplay loop muted playsinline aria-label="${alt || tr("profiles.media.gif")}"${m.preview_url ? html` poster="${m.preview_url}"` : ""}></video></li>`;
    case "video":
      return html`<li><video src="${src}" controls preload="none" aria-label="${alt || tr("profiles.media.video")}"${m.preview_url ? html` poster="${m.preview_url}"` : ""}><a href="${src}">${tr("profiles.media.download")}</a></video>${alt ? html`<p class="media-alt">${alt}</p>` : ""}</li>`;
    case "audio":
      return html`<li><audio src="${src}" controls preload="none" aria-label="${alt || tr("profiles.media.audio")}"><a href="${src}">${tr("profiles.media.download")}</a></audio>${alt ? html`<p class="media-alt">${alt}</p>` : ""}</li>`;
    default:
      return html`<li><a href="${src}"${linkTarget(rc)}>${alt || tr("profiles.media.attachment")}</a></li>`;
  }
}

function dimensions(m: WebMedia): SafeHtml {
  const d = m.meta?.small ?? m.meta?.original;
  return d?.width && d.height ? html` width="${d.width}" height="${d.height}"` : html``;
}

/** A post's media; sensitive media behind a click (`<details>`, no script needed). */
export function mediaGallery(s: WebStatus, rc: RenderContext): SafeHtml {
  if (s.media_attachments.length === 0) return html``;
  const list = html`<ul class="media media-${Math.min(s.media_attachments.length, 4)}">${s.media_attachments.map((m) => mediaItem(m, rc))}</ul>`;
  if (!s.sensitive) return list;
  return html`<details class="sensitive"><summary>${rc.tr("profiles.media.sensitive")} <span class="reveal">${rc.tr("profiles.media.show")}</span></summary>${list}</details>`;
}

/** A poll's results, read-only (voting happens on the reader's own server). */
export function pollResults(poll: WebPoll, rc: RenderContext): SafeHtml {
  const { tr } = rc;
  const locale = tr.locale;
  const total = poll.multiple ? (poll.voters_count ?? poll.votes_count) : poll.votes_count;
  const hidden = poll.options.some((o) => o.votes_count === null);
  const options = poll.options.map((o) => {
    const title = emojifyText(o.title, poll.emojis);
    if (o.votes_count === null) return html`<li><span class="poll-option">${title}</span></li>`;
    const pct = total > 0 ? Math.round((o.votes_count / total) * 100) : 0;
    return html`<li><span class="poll-option">${title}</span> <span class="poll-pct">${pct}%</span>
<meter min="0" max="100" value="${pct}" aria-label="${tr("profiles.poll.share", { option: o.title, percent: pct })}">${pct}%</meter></li>`;
  });
  const ends = poll.expires_at
    ? poll.expired
      ? tr.html("profiles.poll.closed_at", { date: timeTag(poll.expires_at, locale) })
      : tr.html("profiles.poll.ends_at", { date: timeTag(poll.expires_at, locale) })
    : "";
  const voters = poll.multiple && poll.voters_count !== null ? poll.voters_count : poll.votes_count;
  return html`<div class="poll">
<ul>${options}</ul>
<p class="muted">${tr.plural(poll.multiple && poll.voters_count !== null ? "profiles.poll.voters" : "profiles.poll.votes", voters)}${hidden ? html` · ${tr("profiles.poll.hidden")}` : ""}${ends ? html` · ${ends}` : ""}</p>
</div>`;
}

/** The body of a post: content, media and poll, behind its content warning when it has one. */
function statusBody(s: WebStatus, rc: RenderContext): SafeHtml {
  const inner = html`<div class="status-content"${s.language ? html` lang="${s.language}"` : ""}>${emojifyHtml(s.content, s.emojis)}</div>
${mediaGallery(s, rc)}${s.poll ? pollResults(s.poll, rc) : ""}`;
  if (s.spoiler_text === "") return inner;
  return html`<details class="cw"><summary><span class="cw-text">${emojifyText(s.spoiler_text, s.emojis)}</span> <span class="reveal">${rc.tr("profiles.status.show_more")}</span></summary>
${inner}</details>`;
}

/** Counts and the interaction links (each goes to the remote interaction page). */
function statusActions(s: WebStatus, rc: RenderContext): SafeHtml {
  const { tr } = rc;
  const action = (type: "reply" | "reblog" | "favourite", label: string, count: string) =>
    html`<li><a href="${interactionUrl(type, s.uri)}"${linkTarget(rc)}>${label}</a> <span class="count">${count}</span></li>`;
  const boostable = s.visibility === "public" || s.visibility === "unlisted";
  return html`<ul class="status-actions" aria-label="${tr("profiles.status.actions")}">
${action("reply", tr("profiles.status.reply"), tr.plural("profiles.status.replies", s.replies_count))}
${boostable ? action("reblog", tr("profiles.status.boost"), tr.plural("profiles.status.boosts", s.reblogs_count)) : ""}
${action("favourite", tr("profiles.status.favourite"), tr.plural("profiles.status.favourites", s.favourites_count))}
</ul>`;
}

export interface StatusCardOptions {
  /** The post the page is about (a bigger card, full date). */
  focal?: boolean;
  /** Shown among the pinned posts. */
  pinned?: boolean;
}

/**
 * One post (or a boost: the boosted post, under a line naming who boosted it). The author links
 * to their profile (here or at their origin), the date to the post (here or at its origin).
 */
export function statusCard(top: WebStatus, rc: RenderContext, opts: StatusCardOptions = {}): SafeHtml {
  const { tr } = rc;
  const locale = tr.locale;
  const s = top.reblog ?? top;
  const a = s.account;
  const booster = top.reblog
    ? html`<p class="status-prepend muted">${tr.html("profiles.status.boosted_by", {
        name: html`<a href="${top.account.url}"${linkTarget(rc)}>${emojifyText(top.account.display_name || top.account.username, top.account.emojis)}</a>`,
      })}</p>`
    : "";
  const pinned = opts.pinned ? html`<p class="status-prepend muted">${tr("profiles.status.pinned")}</p>` : "";
  const edited = s.edited_at
    ? html` <span class="edited muted">${tr.html("profiles.status.edited", { date: timeTag(s.edited_at, locale) })}</span>`
    : "";
  const visibility =
    s.visibility === "unlisted" ? html` <span class="muted">${tr("profiles.status.unlisted")}</span>` : "";
  const classes = `status${opts.focal ? " focal" : ""}`;
  return html`<article class="${classes}" id="status-${s.id}">
${booster}${pinned}<header class="status-head">
<a class="status-author" href="${a.url}"${linkTarget(rc)}><img class="avatar" src="${a.avatar_static}" alt="" width="46" height="46" loading="lazy"><span class="status-names"><span class="display-name">${emojifyText(a.display_name || a.username, a.emojis)}</span> <span class="acct muted">${fullAcct(a.acct, rc.localDomain)}</span></span></a>
<a class="status-time muted" href="${statusHref(s)}"${linkTarget(rc)}>${timeTag(s.created_at, locale)}</a>${edited}${visibility}
</header>
${statusBody(s, rc)}
${statusActions(s, rc)}
</article>`;
}

/** A list of posts, or a line saying there are none. */
export function statusList(statuses: readonly WebStatus[], rc: RenderContext, empty: string): SafeHtml {
  if (statuses.length === 0) return html`<p class="empty muted">${empty}</p>`;
  return html`<div class="statuses">${statuses.map((s) => statusCard(s, rc))}</div>`;
}

/** Links to newer and older pages (`min_id` / `max_id` on the same path). */
export function pagination(path: string, links: { older?: string; newer?: string }, tr: Translate): SafeHtml {
  if (!links.older && !links.newer) return html``;
  return html`<nav class="pagination" aria-label="${tr("common.pagination")}">
${links.newer ? html`<a rel="prev" href="${path}?min_id=${links.newer}">${tr("common.previous")}</a>` : html`<span></span>`}
${links.older ? html`<a rel="next" href="${path}?max_id=${links.older}">${tr("common.next")}</a>` : ""}
</nav>`;
}
