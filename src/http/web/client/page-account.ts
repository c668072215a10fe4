import type { Context } from "hono";
import { refreshIfStale } from "../../../federation/resolve/queue.ts";
import { getVisibleAccount } from "../../../services/accounts/find-accounts.ts";
import { accountJson } from "../../../services/accounts/views.ts";
import { followAccountsPage } from "../../../services/follows/lists.ts";
import { relationshipsWithExisting } from "../../../services/relationships/relationships.ts";
import { accountStatusesPage } from "../../../services/statuses/pages.ts";
import { statusesJson } from "../../../services/statuses/views.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { type ClientUser, clientView, requireClient, sendClientPage } from "./layout.ts";
import { loadMore, orNotFound, rendered, tabs } from "./page-shared.ts";
import { type RAccount, type RStatus, renderStatuses } from "./render.ts";
import { type RProfile, type RRelationship, renderAccounts, renderProfile } from "./render-pages.ts";

const STATUSES = 20;
const ACCOUNTS = 40;

type Tab = "posts" | "replies" | "media";

/** The query of `GET /api/v1/accounts/:id/statuses` for a profile tab. */
const TAB_QUERY: Record<Tab, string> = {
  posts: "exclude_replies=true",
  replies: "exclude_replies=false",
  media: "only_media=true",
};

/** The account (as `GET /api/v1/accounts/:id`) and the viewer's relationship with it. */
async function profileOf(c: Context<HonoEnv>, me: ClientUser) {
  const ctx = c.env.ctx;
  const account = await getVisibleAccount(ctx, c.req.param("id") ?? "");
  await refreshIfStale(ctx, [account]);
  const [json, rels] = await Promise.all([
    accountJson(ctx, account),
    relationshipsWithExisting(ctx, me.account.id, [account.id], false),
  ]);
  return {
    account: json as unknown as RProfile,
    rel: rels[0] as unknown as RRelationship | undefined,
    id: account.id,
    found: account,
  };
}

/**
 * `/web/accounts/:id`: the profile as `GET /api/v1/accounts/:id`, the relationship as
 * `GET /api/v1/accounts/relationships`, and its posts as `GET /api/v1/accounts/:id/statuses`
 * (tabs: posts, with replies, media).
 */
export async function accountPage(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireClient(c);
  if (me instanceof Response) return me;
  return orNotFound(c, me, async () => {
    const ctx = c.env.ctx;
    const tr = t(c);
    const { account, rel, id, found } = await profileOf(c, me);
    const given = c.req.query("tab");
    const tab: Tab = given === "replies" || given === "media" ? given : "posts";
    const { rows, statuses } = await accountStatusesPage(
      ctx,
      found,
      me.account.id,
      { pinned: false, excludeReplies: tab === "posts", excludeReblogs: false, onlyMedia: tab === "media" },
      { limit: STATUSES },
    );
    const json = (await statusesJson(ctx, statuses, me.account.id, {
      filterContext: "account",
    })) as unknown as RStatus[];
    // The posts tab starts with the pinned posts (`pinned=true`), as Mastodon's profiles.
    const pinned =
      tab === "posts"
        ? ((await statusesJson(
            ctx,
            (
              await accountStatusesPage(
                ctx,
                found,
                me.account.id,
                { pinned: true, excludeReplies: false, excludeReblogs: false, onlyMedia: false },
                { limit: STATUSES },
              )
            ).statuses,
            me.account.id,
            { filterContext: "account" },
          )) as unknown as RStatus[])
        : [];
    const view = clientView(c, me, "account");
    const base = `/web/accounts/${id}`;
    const last = rows.at(-1);
    const next =
      rows.length >= STATUSES && last
        ? `/api/v1/accounts/${id}/statuses?${TAB_QUERY[tab]}&max_id=${last.id}`
        : undefined;
    const name = account.display_name || account.username;
    const body = html`${rendered(renderProfile(account, rel, view))}
${tabs(tr("client.pages.profile_tabs"), [
  [base, tr("client.pages.tab_posts"), tab === "posts"],
  [`${base}?tab=replies`, tr("client.pages.tab_replies"), tab === "replies"],
  [`${base}?tab=media`, tr("client.pages.tab_media"), tab === "media"],
])}
${
  pinned.length > 0
    ? html`<h2 class="pinned-heading">${tr("client.pages.pinned")}</h2>
<ul class="statuses pinned" id="account-pinned">${rendered(renderStatuses(pinned, view))}</ul>`
    : ""
}
<ul class="statuses" id="account-statuses" data-account-id="${id}">${rendered(renderStatuses(json, view))}</ul>
${loadMore(c, "account-statuses", "statuses", next)}`;
    return sendClientPage(c, me, {
      title: tr("client.pages.profile_of", { name }),
      body,
      context: "account",
      page: { kind: "account", accountId: id, tab },
    });
  });
}

/** `/web/accounts/:id/following` and `/followers`: the lists as the API gives them to the viewer. */
export function followListPage(side: "followers" | "following") {
  return async (c: Context<HonoEnv>): Promise<Response> => {
    const me = await requireClient(c);
    if (me instanceof Response) return me;
    return orNotFound(c, me, async () => {
      const ctx = c.env.ctx;
      const tr = t(c);
      const { account, rel, id } = await profileOf(c, me);
      const r = await followAccountsPage(ctx, side, id, me.account, { limit: ACCOUNTS });
      const view = clientView(c, me, "account");
      const last = r.rows.at(-1);
      const next = r.rows.length >= ACCOUNTS && last ? `/api/v1/accounts/${id}/${side}?max_id=${last.id}` : undefined;
      const name = account.display_name || account.username;
      const body = html`${rendered(renderProfile(account, rel, view))}
<h2>${tr(side === "followers" ? "client.pages.followers_of" : "client.pages.following_of", { name })}</h2>
<ul class="accounts" id="account-list">${rendered(renderAccounts(r.json as unknown as RAccount[], view))}</ul>
${loadMore(c, "account-list", "accounts", next)}
<p><a href="/web/accounts/${id}">${tr("client.pages.back_to_profile")}</a></p>`;
      return sendClientPage(c, me, {
        title: tr(side === "followers" ? "client.pages.followers_of" : "client.pages.following_of", { name }),
        body,
        context: "account",
        page: { kind: side, accountId: id },
      });
    });
  };
}
