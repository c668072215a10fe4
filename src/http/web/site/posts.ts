import type { Context } from "hono";
import type { Account } from "../../../services/accounts/types.ts";
import type { Status } from "../../../services/statuses/types.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html, SafeHtml } from "../pages/html.ts";
import { formatDateTime } from "./common.ts";

/**
 * The site's own minimal rendering of a post in a list (the live feeds): author, date, content
 * (stored sanitised), content warning behind a `<details>`, and a note for media and polls, which
 * the post's own page shows. Local posts link to their page here, remote ones to their origin.
 */
export function postUrl(s: Status, author: Account): string {
  return s.local ? `/@${author.username}/${s.id}` : (s.url ?? s.uri);
}

function authorUrl(a: Account): string {
  return a.domain === null ? `/@${a.username}` : (a.url ?? a.uri);
}

export function postItem(
  c: Context<HonoEnv>,
  s: Status,
  author: Account,
  localDomain: string,
  mediaCount: number,
): SafeHtml {
  const tr = t(c);
  const name = author.displayName || author.username;
  const acct = `@${author.username}@${author.domain ?? localDomain}`;
  const url = postUrl(s, author);
  const extras = html`${mediaCount > 0 ? html`<p class="muted">${tr.plural("site.post.has_media", mediaCount)}</p>` : ""}${
    s.pollId ? html`<p class="muted">${tr("site.post.poll")}</p>` : ""
  }`;
  const content = html`<div class="site-post-content"${s.language ? html` lang="${s.language}"` : ""}>${new SafeHtml(s.content)}</div>
${extras}`;
  const body = s.spoilerText
    ? html`<details><summary>${tr("site.post.content_warning", { text: s.spoilerText })}</summary>
${content}
</details>`
    : s.sensitive && mediaCount > 0
      ? html`<details><summary>${tr("site.post.sensitive")}</summary>
${content}
</details>`
      : content;
  return html`<article class="site-post" aria-label="${tr("site.post.posted_by", { name })}">
<header><a class="site-post-author" href="${authorUrl(author)}"><strong>${name}</strong> <span class="muted">${acct}</span></a>
<a class="site-post-date" href="${url}"${s.local ? "" : html` rel="noopener"`}><time datetime="${s.createdAt}">${formatDateTime(tr.locale, s.createdAt)}</time>${s.editedAt ? html` <span class="muted">(${tr("site.post.edited")})</span>` : ""}</a></header>
${body}
</article>`;
}
