import { MISSING_HEADER } from "../../../serializers/account.ts";
import type { WebAccount, WebStatus } from "../../../services/web/entities.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import type { RenderContext } from "./components.ts";
import { emojifyHtml, emojifyText, fullAcct, htmlText, interactionUrl, timeTag, truncate } from "./format.ts";

/**
 * Shared rendering of accounts for the public pages: the profile header (images, names, notices,
 * bio, fields with verified links, counts, the follow link) and the OpenGraph metadata of profile
 * and post pages.
 */

/** The name an account is shown by (its display name, else its username). */
export function shownName(a: WebAccount): string {
  return a.display_name.trim() || a.username;
}

function notices(a: WebAccount, rc: RenderContext): SafeHtml[] {
  const { tr } = rc;
  const out: SafeHtml[] = [];
  if (a.moved) {
    out.push(
      tr.html("profiles.account.moved", {
        name: html`<a href="${a.moved.url}">${emojifyText(shownName(a.moved), a.moved.emojis)} (${fullAcct(a.moved.acct, rc.localDomain)})</a>`,
      }),
    );
  }
  if (a.memorial) out.push(html`${tr("profiles.account.memorial")}`);
  if (a.limited) out.push(html`${tr("profiles.account.limited")}`);
  if (a.bot) out.push(html`${tr("profiles.account.bot")}`);
  if (a.group) out.push(html`${tr("profiles.account.group")}`);
  if (a.locked) out.push(html`${tr("profiles.account.locked")}`);
  return out;
}

function fields(a: WebAccount, rc: RenderContext): SafeHtml {
  if (a.fields.length === 0) return html``;
  const { tr } = rc;
  return html`<dl class="fields">${a.fields.map(
    (f) => html`<div class="field${f.verified_at ? " verified" : ""}"><dt>${emojifyText(f.name, a.emojis)}</dt>
<dd>${
      f.verified_at
        ? html`<span class="verified-mark" title="${tr("profiles.account.verified_title", { date: f.verified_at.slice(0, 10) })}">✓<span class="visually-hidden">${tr.html("profiles.account.verified", { date: timeTag(f.verified_at, tr.locale, false) })}</span></span> `
        : ""
    }${emojifyHtml(f.value, a.emojis)}</dd></div>`,
  )}</dl>`;
}

function counts(a: WebAccount, rc: RenderContext): SafeHtml {
  const { tr } = rc;
  const network = a.hide_collections !== true;
  return html`<ul class="counts">
<li>${tr.plural("profiles.account.posts", a.statuses_count)}</li>
${network ? html`<li>${tr.plural("profiles.account.following", a.following_count)}</li><li>${tr.plural("profiles.account.followers", a.followers_count)}</li>` : ""}
</ul>`;
}

/** The header of a profile page (its `<h1>` is the account's name). */
export function accountHeader(a: WebAccount, rc: RenderContext): SafeHtml {
  const { tr } = rc;
  const hasHeader = !a.header_static.endsWith(MISSING_HEADER);
  const notes = notices(a, rc);
  return html`<div class="profile-header">
${hasHeader ? html`<img class="header-image" src="${a.header_static}" alt="" width="1500" height="500">` : ""}
<div class="profile-id">
<img class="avatar avatar-large" src="${a.avatar_static}" alt="" width="96" height="96">
<h1><span class="display-name">${emojifyText(shownName(a), a.emojis)}</span> <span class="acct">${fullAcct(a.acct, rc.localDomain)}</span></h1>
</div>
${notes.length > 0 ? html`<ul class="account-notices">${notes.map((n) => html`<li>${n}</li>`)}</ul>` : ""}
${a.note ? html`<div class="note">${emojifyHtml(a.note, a.emojis)}</div>` : ""}
${fields(a, rc)}
${counts(a, rc)}
${a.moved ? "" : html`<p class="profile-actions"><a class="button" href="${interactionUrl("follow", a.uri)}">${tr("profiles.account.follow")}</a></p>`}
</div>`;
}

export type TabName = "posts" | "with_replies" | "media";

/** The profile's tabs (posts, posts and replies, media), the current one marked. */
export function profileTabs(username: string, current: TabName, rc: RenderContext): SafeHtml {
  const { tr } = rc;
  const tabs: [TabName, string, string][] = [
    ["posts", `/@${username}`, tr("profiles.tabs.posts")],
    ["with_replies", `/@${username}/with_replies`, tr("profiles.tabs.with_replies")],
    ["media", `/@${username}/media`, tr("profiles.tabs.media")],
  ];
  return html`<nav class="tabs" aria-label="${tr("profiles.tabs.label")}"><ul>${tabs.map(
    ([name, href, label]) =>
      html`<li><a href="${href}"${name === current ? html` aria-current="page"` : ""}>${label}</a></li>`,
  )}</ul></nav>`;
}

function meta(property: string, content: string): SafeHtml {
  return html`<meta property="${property}" content="${content}">\n`;
}

function named(name: string, content: string): SafeHtml {
  return html`<meta name="${name}" content="${content}">\n`;
}

export interface OpenGraph {
  title: string;
  description: string;
  image: string;
  url: string;
  type: "profile" | "article" | "website";
  siteName: string;
  /** `profile:username` (acct with domain, without the `@`). */
  username?: string;
  /** A large image card (a post's picture) rather than the summary card. */
  largeImage?: boolean;
  publishedTime?: string;
}

/** OpenGraph and `twitter:` metadata. */
export function openGraph(og: OpenGraph): SafeHtml {
  return html`${meta("og:site_name", og.siteName)}${meta("og:type", og.type)}${meta("og:title", og.title)}${meta("og:url", og.url)}${meta("og:description", og.description)}${meta("og:image", og.image)}${og.username ? meta("profile:username", og.username) : ""}${og.publishedTime ? meta("article:published_time", og.publishedTime) : ""}${named("twitter:card", og.largeImage ? "summary_large_image" : "summary")}${named("twitter:title", og.title)}${named("twitter:description", og.description)}`;
}

/** The OpenGraph title of an account: `Name (@user@domain)`. */
export function accountTitle(a: WebAccount, localDomain: string): string {
  return `${shownName(a)} (${fullAcct(a.acct, localDomain)})`;
}

/** A post's description for previews: its content warning, else its text, plus what it carries. */
export function statusDescription(s: WebStatus, rc: RenderContext): string {
  const { tr } = rc;
  if (s.spoiler_text !== "") return truncate(tr("profiles.og.content_warning", { text: s.spoiler_text }), 300);
  const parts = [htmlText(s.content)];
  if (s.media_attachments.length > 0) parts.push(tr.plural("profiles.og.attachments", s.media_attachments.length));
  if (s.poll) parts.push(tr("profiles.og.poll", { options: s.poll.options.map((o) => o.title).join(", ") }));
  return truncate(parts.filter((p) => p !== "").join(" · "), 300);
}

/** The picture a post's preview shows: its first image unless hidden behind a warning, else the author's avatar. */
export function statusImage(s: WebStatus): { url: string; large: boolean } {
  const shown = !s.sensitive && s.spoiler_text === "";
  const picture = shown ? s.media_attachments.find((m) => m.type === "image" && (m.url || m.preview_url)) : undefined;
  const url = picture?.url ?? picture?.preview_url;
  return url ? { url, large: true } : { url: s.account.avatar_static, large: false };
}
