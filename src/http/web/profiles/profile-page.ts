import type { Context } from "hono";
import type { IdWindow } from "../../../lib/pagination.ts";
import { keptPage, type PageDeps, statusDeps } from "../../../services/web/page-cache.ts";
import { findProfileAccount, type ProfileTab, profileView } from "../../../services/web/public-pages.ts";
import type { HonoEnv } from "../../types.ts";
import type { PageOptions } from "../layout.ts";
import { html } from "../pages/html.ts";
import type { RenderContext } from "./components.ts";
import { pagination, statusCard, statusList } from "./components.ts";
import { accountHeader, accountTitle, openGraph, profileTabs, shownName } from "./components-account.ts";
import { fullAcct, htmlText, truncate } from "./format.ts";
import { alternate } from "./negotiation.ts";
import { type PageOutcome, readWindow, renderContext, sendOutcome, siteTitleOf } from "./shared.ts";

const TAB_PATHS: Record<ProfileTab, string> = { posts: "", with_replies: "/with_replies", media: "/media" };

/** A profile page: `/@user` (posts and boosts, pinned first), `/@user/with_replies`, `/@user/media`. */
export async function profilePage(c: Context<HonoEnv>, username: string, tab: ProfileTab): Promise<Response> {
  const ctx = c.env.ctx;
  const window = readWindow(c);
  const rc = renderContext(c);
  // Pages are the same for every reader (rendered as for an anonymous one): kept per locale.
  const key = `profile:${rc.tr.locale}:${tab}:${username.toLowerCase()}:${window.maxId ?? ""}:${window.minId ?? ""}`;
  const out = await keptPage<PageOutcome>(
    ctx,
    key,
    () => siteTitleOf(ctx),
    () => renderProfile(c, rc, username, tab, window),
  );
  return sendOutcome(c, out);
}

async function renderProfile(
  c: Context<HonoEnv>,
  rc: RenderContext,
  username: string,
  tab: ProfileTab,
  window: IdWindow,
): Promise<{ value: PageOutcome; deps?: PageDeps }> {
  const ctx = c.env.ctx;
  const found = await findProfileAccount(ctx, username);
  if (found.state === "missing") return { value: { missing: true } };
  if (found.state !== "ok") return { value: { gone: found.state } };
  const view = await profileView(ctx, found.account, tab, window);
  const { tr } = rc;
  const a = view.account;
  const deps: PageDeps = { keys: [`a${a.id}`, `v${a.id}`], hasPoll: false, siteTitle: view.siteTitle };
  statusDeps(view.pinned, deps);
  statusDeps(view.statuses, deps);
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
  const page: PageOptions = {
    title: accountTitle(a, rc.localDomain),
    body,
    head,
    size: "wide",
    description: description || undefined,
    noindex: a.noindex === true,
    siteTitle: view.siteTitle,
  };
  return { value: { page, uri: a.uri }, deps };
}
