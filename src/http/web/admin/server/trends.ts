import type { Context, Hono } from "hono";
import {
  type Decision,
  linkCandidatesJson,
  reviewLink,
  reviewStatus,
  reviewTag,
  statusCandidatesJson,
  tagCandidatesJson,
} from "../../../../services/moderation/trends.ts";
import type { HonoEnv } from "../../../types.ts";
import { t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { actingAs, buttonForm, done, found } from "./shared.ts";

const PATH = "/admin/trends";
const P = Permission.manageTaxonomies;
const KINDS = ["tags", "links", "statuses"] as const;
type Kind = (typeof KINDS)[number];
const LIMIT = 40;

type Json = Record<string, unknown>;

/** Those waiting for a decision first, each group in the service's order (best first). */
const pendingFirst = (list: Json[]) =>
  [...list].sort((a, b) => Number(b.requires_review === true) - Number(a.requires_review === true));

/** A post's HTML as one line of plain text, for the review list. */
function plain(htmlText: unknown): string {
  const s = String(htmlText ?? "")
    .replace(/<br\s*\/?>|<\/p>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
  return s.length > 280 ? `${s.slice(0, 279)}…` : s;
}

async function trendsPage(c: Context<HonoEnv>, me: Staff, kind: Kind): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const list =
    kind === "tags"
      ? await tagCandidatesJson(ctx, me.account.id, LIMIT, 0)
      : kind === "links"
        ? await linkCandidatesJson(ctx, LIMIT, 0)
        : await statusCandidatesJson(ctx, me.account.id, LIMIT, 0);
  const state = (item: Json) => {
    if (item.requires_review === true) return html`<span class="badge warn">${tr("admin.trends.pending")}</span>`;
    const allowed = kind === "tags" ? item.trendable === true : item.trendable !== false;
    return allowed
      ? html`<span class="badge good">${tr("admin.trends.approved")}</span>`
      : html`<span class="badge bad">${tr("admin.trends.rejected")}</span>`;
  };
  const what = (item: Json): SafeHtml => {
    if (kind === "tags") return html`<a href="/tags/${String(item.name)}">#${String(item.name)}</a>`;
    if (kind === "links")
      return html`<a href="${String(item.url)}" rel="nofollow noopener noreferrer">${String(item.title || item.url)}</a><br><span class="hint">${String(item.url)}</span>`;
    const account = item.account as Json | undefined;
    return html`<p>${plain(item.content)}</p><span class="hint">@${String(account?.acct ?? "")} · <a href="/web/statuses/${String(item.id)}">${tr("admin.trends.open_post")}</a></span>`;
  };
  const rows = pendingFirst(list).map(
    (item) => html`<tr data-id="${String(item.id)}">
<td>${what(item)}</td>
<td>${state(item)}</td>
<td><div class="admin-actions">
${buttonForm(`${PATH}/${kind}/${String(item.id)}/approve`, me.csrf, tr("admin.trends.approve"))}
${buttonForm(`${PATH}/${kind}/${String(item.id)}/reject`, me.csrf, tr("admin.trends.reject"), "danger")}
</div></td></tr>`,
  );
  const tabs = KINDS.map(
    (k) =>
      html`<li><a href="${PATH}?kind=${k}"${k === kind ? html` aria-current="page"` : ""}>${tr(`admin.trends.${k}`)}</a></li>`,
  );
  const body = html`<h1>${tr("admin.trends.title")}</h1>
<nav aria-label="${tr("admin.trends.kinds")}"><ul class="admin-tabs">${tabs}</ul></nav>
<p>${tr("admin.trends.intro")}</p>
${
  list.length === 0
    ? html`<p>${tr("admin.trends.empty")}</p>`
    : html`<table class="admin-table"><thead><tr><th scope="col">${tr(`admin.trends.${kind}`)}</th><th scope="col">${tr("admin.trends.state")}</th><th scope="col"><span class="visually-hidden">${tr("admin.trends.actions")}</span></th></tr></thead>
<tbody>${rows}</tbody></table>`
}`;
  return sendAdminPage(c, me, {
    title: tr("admin.trends.title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
  });
}

const REVIEW = { tags: reviewTag, links: reviewLink, statuses: reviewStatus } as const;

/** `/admin/trends`: review of trending hashtags, links and posts (Manage Taxonomies). */
export function trendPages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    const k = c.req.query("kind");
    return trendsPage(c, me, KINDS.includes(k as Kind) ? (k as Kind) : "tags");
  });

  for (const kind of KINDS) {
    for (const decision of ["approve", "reject"] as const satisfies readonly Decision[]) {
      app.post(`${PATH}/${kind}/:id/${decision}`, async (c) => {
        const form = await staffForm(c, P);
        if (form instanceof Response) return form;
        const r = await found(c, () => REVIEW[kind](c.env.ctx, actingAs(form.me), c.req.param("id"), decision));
        if (r instanceof Response) return r;
        return done(c, `${PATH}?kind=${kind}`, `admin.trends.${decision}_done`);
      });
    }
  }
}
