import type { Context } from "hono";
import { findProfileAccount, type ProfileTab, profileView } from "../../../services/web/public-pages.ts";
import type { HonoEnv } from "../../types.ts";
import { sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { pagination, statusCard, statusList } from "./components.ts";
import { accountHeader, accountTitle, openGraph, profileTabs, shownName } from "./components-account.ts";
import { fullAcct, htmlText, truncate } from "./format.ts";
import { alternate } from "./negotiation.ts";
import { gonePage, notFoundPage, readWindow, renderContext } from "./shared.ts";

const TAB_PATHS: Record<ProfileTab, string> = { posts: "", with_replies: "/with_replies", media: "/media" };

/** A profile page: `/@user` (posts and boosts, pinned first), `/@user/with_replies`, `/@user/media`. */
export async function profilePage(c: Context<HonoEnv>, username: string, tab: ProfileTab): Promise<Response> {
  const ctx = c.env.ctx;
  const found = await findProfileAccount(ctx, username);
  if (found.state === "missing") return notFoundPage(c);
  if (found.state !== "ok") return gonePage(c, found.state);
  const window = readWindow(c);
  const view = await profileView(ctx, found.account, tab, window);
  const rc = renderContext(c);
  const { tr } = rc;
  const a = view.account;
  const path = `/@${a.username}${TAB_PATHS[tab]}`;
  const description = truncate(htmlText(a.note), 300);
  const head = html`${alternate(c, a.uri)}<link rel="alternate" type="application/rss+xml" href="/@${a.username}.rss" title="${tr("profiles.rss_title", { name: shownName(a) })}">
${openGraph({
  title: accountTitle(a, rc.localDomain),
  description: description || tr("profiles.og.profile_description", { acct: fullAcct(a.acct, rc.localDomain) }),
  image: a.avatar_static,
  url: a.url,
  type: "profile",
  siteName: view.siteTitle,
  username: fullAcct(a.acct, rc.localDomain).slice(1),
})}`;
  const pinned =
    view.pinned.length > 0
      ? html`<section class="pinned" aria-labelledby="pinned-heading"><h2 id="pinned-heading">${tr("profiles.pinned")}</h2>
<div class="statuses">${view.pinned.map((s) => statusCard(s, rc, { pinned: true }))}</div></section>`
      : "";
  const empty = tab === "media" ? tr("profiles.empty.media") : tr("profiles.empty.posts");
  const body = html`${accountHeader(a, rc)}
${profileTabs(a.username, tab, rc)}
${pinned}
<section aria-labelledby="posts-heading"><h2 id="posts-heading" class="visually-hidden">${tr(`profiles.tabs.${tab}`)}</h2>
${statusList(view.statuses, rc, empty)}
</section>
${pagination(path, view.links, tr)}`;
  return sendPage(c, {
    title: accountTitle(a, rc.localDomain),
    body,
    head,
    size: "wide",
    description: description || undefined,
    noindex: a.noindex === true,
    siteTitle: view.siteTitle,
  });
}
