import type { Context } from "hono";
import type { AboutInfo } from "../../../services/web/site.ts";
import type { HonoEnv } from "../../types.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { html, SafeHtml } from "../pages/html.ts";

/** Suggested apps: a static list, the official ones first (texts in the i18n table). */
const APPS: { key: MessageKey; url: string }[] = [
  { key: "site.apps.mastodon_ios", url: "https://apps.apple.com/app/mastodon-for-iphone-and-ipad/id1571998974" },
  { key: "site.apps.mastodon_android", url: "https://play.google.com/store/apps/details?id=org.joinmastodon.android" },
  { key: "site.apps.elk", url: "https://elk.zone/" },
  { key: "site.apps.phanpy", url: "https://phanpy.social/" },
  { key: "site.apps.ivory", url: "https://tapbots.com/ivory/" },
  { key: "site.apps.tusky", url: "https://tusky.app/" },
  { key: "site.apps.toot", url: "https://toot.bezdomni.net/" },
];
const MORE_APPS_URL = "https://joinmastodon.org/apps";

export function appsList(c: Context<HonoEnv>): SafeHtml {
  const tr = t(c);
  return html`<ul class="site-apps">
${APPS.map((a) => html`<li><a href="${a.url}" rel="noopener">${tr(a.key)}</a></li>\n`)}</ul>
<p><a href="${MORE_APPS_URL}" rel="noopener">${tr("site.about.more_apps")}</a></p>`;
}

/** How to join (by registration mode) and sign in, with the links to both. */
export function joinBlock(c: Context<HonoEnv>, reg: AboutInfo["registrations"]): SafeHtml {
  const tr = t(c);
  const signIn = html`<p>${tr("site.registrations.have_account")} <a href="/auth/sign_in">${tr("common.sign_in")}</a></p>`;
  if (reg.mode === "closed") {
    return html`<div class="site-registrations" data-mode="closed">
<p>${tr("site.registrations.closed")}</p>
${reg.closedMessage ? html`<div class="site-closed-message">${new SafeHtml(reg.closedMessage)}</div>` : ""}
<p>${tr("site.registrations.closed_other")}</p>
${signIn}
</div>`;
  }
  const text = reg.mode === "open" ? tr("site.registrations.open") : tr("site.registrations.approval");
  const action = reg.mode === "open" ? tr("common.sign_up") : tr("site.registrations.apply");
  return html`<div class="site-registrations" data-mode="${reg.mode}">
<p>${text}</p>
${reg.reasonRequired ? html`<p>${tr("site.registrations.approval_reason")}</p>` : ""}
${reg.minAge ? html`<p>${tr("site.registrations.min_age", { age: reg.minAge })}</p>` : ""}
<p><a class="button" href="/auth/sign_up">${action}</a></p>
${signIn}
</div>`;
}
