import type { Context } from "hono";
import { accountsJson } from "../../../services/accounts/views.ts";
import { search } from "../../../services/search/search.ts";
import { tagsJson } from "../../../services/statuses/tags.ts";
import { statusesJson } from "../../../services/statuses/views.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { clientView, requireClient, sendClientPage } from "./layout.ts";
import { rendered } from "./page-shared.ts";
import { type RAccount, type RStatus, renderStatuses } from "./render.ts";
import { type RTag, renderAccounts, renderTags } from "./render-pages.ts";

const LIMIT = 20;

/**
 * `/search?q=`: the form, and the results of `GET /api/v2/search` for the viewer (accounts,
 * hashtags, posts; remote accounts and addresses resolved, as signed-in apps may).
 */
export async function searchPage(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireClient(c);
  if (me instanceof Response) return me;
  const ctx = c.env.ctx;
  const tr = t(c);
  const q = (c.req.query("q") ?? "").trim();
  const form = html`<form class="client-search" method="get" action="/search" role="search">
<label for="search-q">${tr("client.pages.search_label")}</label>
<input type="search" id="search-q" name="q" value="${q}" placeholder="${tr("client.pages.search_placeholder")}" autocomplete="off">
<button type="submit">${tr("client.pages.search_button")}</button>
</form>`;
  let results: SafeHtml;
  if (q === "") {
    results = html`<p class="notice">${tr("client.pages.search_prompt")}</p>`;
  } else {
    const viewer = me.account;
    const found = await search(ctx, q, {
      limit: LIMIT,
      offset: 0,
      viewer,
      following: false,
      excludeUnreviewed: false,
      resolve: true,
    });
    const [accounts, statuses, hashtags] = await Promise.all([
      accountsJson(ctx, found.accounts),
      statusesJson(ctx, found.statuses, viewer.id),
      tagsJson(ctx, found.hashtags, viewer.id),
    ]);
    const view = clientView(c, me, "public");
    const sections: SafeHtml[] = [];
    if (accounts.length > 0) {
      sections.push(html`<section class="search-results" id="results-accounts"><h2>${tr("client.pages.results_accounts")}</h2>
<ul class="accounts">${rendered(renderAccounts(accounts as unknown as RAccount[], view))}</ul></section>`);
    }
    if (hashtags.length > 0) {
      sections.push(html`<section class="search-results" id="results-hashtags"><h2>${tr("client.pages.results_hashtags")}</h2>
<ul class="hashtags">${rendered(renderTags(hashtags as unknown as RTag[], view))}</ul></section>`);
    }
    if (statuses.length > 0) {
      sections.push(html`<section class="search-results" id="results-statuses"><h2>${tr("client.pages.results_statuses")}</h2>
<ul class="statuses">${rendered(renderStatuses(statuses as unknown as RStatus[], view))}</ul></section>`);
    }
    results =
      sections.length > 0 ? html`${sections}` : html`<p class="notice">${tr("client.pages.no_results", { q })}</p>`;
  }
  return sendClientPage(c, me, {
    title: tr("client.search"),
    body: html`${form}\n${results}`,
    current: "/search",
    context: "public",
    page: { kind: "search", q },
  });
}
