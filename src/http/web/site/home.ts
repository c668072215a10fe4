import type { Context } from "hono";
import { mayRead } from "../../../services/feeds/live-feed-access.ts";
import { aboutInfo } from "../../../services/web/site.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { publicCacheControl, readerOf } from "./common.ts";
import { appsList, joinBlock } from "./parts.ts";

/**
 * `/`: for visitors, a compact about page (what the server is, how to join or sign in, a link to
 * the full `/about`); for a signed-in user, a welcome page with their profile, settings and apps.
 */
export async function homePage(c: Context<HonoEnv>): Promise<Response> {
  const tr = t(c);
  const reader = await readerOf(c);
  const info = await aboutInfo(c.env.ctx, reader !== undefined);
  const title = info.site.title;
  const description = info.site.shortDescription || tr("site.home.description", { title });
  const cacheControl = publicCacheControl(c);
  const head = html`<link rel="manifest" href="/manifest.json">`;
  const localOpen = mayRead(info.liveFeeds.local, reader !== undefined);

  if (reader) {
    const acct = `@${reader.username}@${info.domain}`;
    return sendPage(c, {
      title: tr("site.welcome.title"),
      siteTitle: title,
      cacheControl,
      noindex: true,
      size: "wide",
      head,
      body: html`<h1>${tr("site.welcome.heading", { name: reader.displayName || reader.username })}</h1>
<p>${tr("site.welcome.intro", { acct })}</p>
<section aria-labelledby="account">
<h2 id="account">${tr("site.welcome.your_account")}</h2>
<ul class="site-links">
<li><a href="/home">${tr("client.timelines.open_client")}</a></li>
<li><a href="/@${reader.username}">${tr("site.welcome.profile")}</a></li>
<li><a href="/settings">${tr("site.welcome.settings")}</a></li>
${localOpen ? html`<li><a href="/public/local">${tr("site.welcome.local")}</a></li>` : ""}
<li><a href="/about">${tr("site.welcome.about")}</a></li>
</ul>
</section>
<section aria-labelledby="apps">
<h2 id="apps">${tr("site.about.apps_heading")}</h2>
<p>${tr("site.welcome.apps_intro", { domain: info.domain })}</p>
${appsList(c)}
</section>`,
    });
  }

  return sendPage(c, {
    title: tr("site.home.title"),
    siteTitle: title,
    description,
    cacheControl,
    size: "wide",
    head,
    body: html`<h1>${title}</h1>
<img class="site-banner" src="${info.thumbnail.url}" alt="${info.thumbnail.description ?? tr("site.about.banner_alt", { title })}" width="1200" height="630">
<p class="site-lead">${description}</p>
<section aria-labelledby="join">
<h2 id="join">${tr("site.home.join_heading", { title })}</h2>
${joinBlock(c, info.registrations)}
</section>
<section aria-labelledby="browse">
<h2 id="browse">${tr("site.home.browse_heading")}</h2>
<ul class="site-links">
<li><a href="/about">${tr("site.home.learn_more")}</a></li>
${localOpen ? html`<li><a href="/public/local">${tr("site.home.browse_local", { title })}</a></li>` : ""}
</ul>
</section>
<section aria-labelledby="apps">
<h2 id="apps">${tr("site.about.apps_heading")}</h2>
<p>${tr("site.about.apps_intro", { title, domain: info.domain })}</p>
${appsList(c)}
</section>`,
  });
}
