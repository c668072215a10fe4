import type { Context } from "hono";
import { GANNET_VERSION } from "../../../lib/version.ts";
import type { PublicDomainBlock } from "../../../services/instance/public-domain-blocks.ts";
import { type AboutInfo, aboutInfo } from "../../../services/web/site.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, SafeHtml } from "../pages/html.ts";
import { publicCacheControl, readerOf } from "./common.ts";
import { appsList, joinBlock } from "./parts.ts";

function banner(c: Context<HonoEnv>, info: AboutInfo): SafeHtml {
  const alt = info.thumbnail.description ?? t(c)("site.about.banner_alt", { title: info.site.title });
  return html`<img class="site-banner" src="${info.thumbnail.url}" alt="${alt}" width="1200" height="630">`;
}

function severityKey(b: PublicDomainBlock): "suspend" | "silence" | "reject_media" {
  return b.severity === "noop" ? "reject_media" : b.severity;
}

function moderation(c: Context<HonoEnv>, info: AboutInfo): SafeHtml {
  const tr = t(c);
  const shown = info.domainBlocks;
  if (!shown) return html``;
  const { blocks, withComments } = shown;
  const kinds = [...new Set(blocks.map(severityKey))];
  const table = html`<table class="site-domain-blocks">
<thead><tr><th scope="col">${tr("site.about.moderation_domain")}</th><th scope="col">${tr("site.about.moderation_severity")}</th>${withComments ? html`<th scope="col">${tr("site.about.moderation_reason")}</th>` : ""}</tr></thead>
<tbody>
${blocks.map(
  (b) =>
    html`<tr><td><code title="SHA-256: ${b.digest}">${b.domain}</code>${b.domain.includes("*") ? html` <span class="muted">${tr("site.about.obfuscated")}</span>` : ""}</td><td>${tr(`site.about.severity_short.${severityKey(b)}`)}</td>${withComments ? html`<td>${b.comment ?? ""}</td>` : ""}</tr>\n`,
)}</tbody>
</table>
<dl class="site-severities">
${kinds.map((k) => html`<dt>${tr(`site.about.severity_short.${k}`)}</dt><dd>${tr(`site.about.severity.${k}`)}</dd>\n`)}</dl>`;
  return html`<section aria-labelledby="moderation">
<h2 id="moderation">${tr("site.about.moderation_heading")}</h2>
${blocks.length === 0 ? html`<p>${tr("site.about.moderation_none")}</p>` : html`<p>${tr("site.about.moderation_intro")}</p>\n${table}`}
</section>`;
}

function contact(c: Context<HonoEnv>, info: AboutInfo): SafeHtml {
  const tr = t(c);
  const a = info.contact;
  const email = info.site.contactEmail;
  const items = [
    a
      ? html`<dt>${tr("site.about.contact_account")}</dt><dd><a href="/@${a.username}">${a.displayName || a.username}</a> <span class="muted">@${a.username}@${info.domain}</span></dd>`
      : "",
    email ? html`<dt>${tr("site.about.contact_email")}</dt><dd><a href="mailto:${email}">${email}</a></dd>` : "",
  ];
  return html`<section aria-labelledby="contact">
<h2 id="contact">${tr("site.about.contact_heading")}</h2>
${a || email ? html`<dl class="site-facts">${items}</dl>` : html`<p>${tr("site.about.no_contact")}</p>`}
</section>`;
}

/** `/about`: everything a visitor should know before joining (the page Mastodon's web client mounts). */
export async function aboutPage(c: Context<HonoEnv>): Promise<Response> {
  const tr = t(c);
  const reader = await readerOf(c);
  const info = await aboutInfo(c.env.ctx, reader !== undefined);
  const title = info.site.title;
  const n = (v: number) => v.toLocaleString(tr.locale);
  const body = html`<h1>${title}</h1>
${banner(c, info)}
<p class="site-lead">${info.site.shortDescription || tr("site.home.description", { title })}</p>
<section aria-labelledby="join">
<h2 id="join">${tr("site.about.join_heading")}</h2>
${reader ? html`<p><a href="/">${tr("site.welcome.title")}</a></p>` : joinBlock(c, info.registrations)}
</section>
${
  info.extendedDescription
    ? html`<section aria-labelledby="extended">
<h2 id="extended">${tr("site.about.extended_heading")}</h2>
<div class="site-text">${new SafeHtml(info.extendedDescription)}</div>
</section>`
    : ""
}
<section aria-labelledby="rules">
<h2 id="rules">${tr("site.about.rules_heading")}</h2>
${
  info.rules.length > 0
    ? html`<p>${tr("site.about.rules_intro")}</p>
<ol class="site-rules">
${info.rules.map((r) => html`<li>${r.text}${r.hint ? html`<br><span class="muted">${r.hint}</span>` : ""}</li>\n`)}</ol>`
    : html`<p>${tr("site.about.no_rules")}</p>`
}
</section>
${moderation(c, info)}
${contact(c, info)}
<section aria-labelledby="stats">
<h2 id="stats">${tr("site.about.stats_heading")}</h2>
<dl class="site-facts">
<dt>${tr("site.about.stats_users")}</dt><dd id="stats-users">${n(info.stats.userCount)}</dd>
<dt>${tr("site.about.stats_posts")}</dt><dd id="stats-posts">${n(info.stats.localPosts)}</dd>
</dl>
</section>
<section aria-labelledby="apps">
<h2 id="apps">${tr("site.about.apps_heading")}</h2>
<p>${tr("site.about.apps_intro", { title, domain: info.domain })}</p>
${appsList(c)}
</section>
<section aria-labelledby="policies">
<h2 id="policies">${tr("site.about.policies_heading")}</h2>
<ul>
<li><a href="/privacy-policy">${tr("common.privacy_policy")}</a></li>
<li><a href="/terms-of-service">${tr("common.terms_of_service")}</a></li>
</ul>
<p class="muted">${tr("site.about.software", { software: `Gannet ${GANNET_VERSION}` })}</p>
</section>`;
  return sendPage(c, {
    title: tr("site.about.title"),
    siteTitle: title,
    description: tr("site.about.meta_description", { title }),
    size: "wide",
    cacheControl: publicCacheControl(c),
    head: html`<link rel="manifest" href="/manifest.json">`,
    body,
  });
}
