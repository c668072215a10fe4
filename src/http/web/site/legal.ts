import type { Context } from "hono";
import { loadSiteInfo } from "../../../services/instance/site-settings.ts";
import { getPrivacyPolicy, getTermsOfService } from "../../../services/instance/site-texts.ts";
import { sanitizeSiteHtml } from "../../../services/web/site.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, SafeHtml } from "../pages/html.ts";
import { formatDate, notFoundPage, publicCacheControl } from "./common.ts";

/** `/privacy-policy`: the text `/api/v1/instance/privacy_policy` serves (the operator's, else the default). */
export async function privacyPolicyPage(c: Context<HonoEnv>): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const [policy, site] = await Promise.all([getPrivacyPolicy(ctx), loadSiteInfo(ctx)]);
  const content = sanitizeSiteHtml(policy.content);
  if (content.trim() === "") return notFoundPage(c);
  return sendPage(c, {
    title: tr("site.privacy.title"),
    siteTitle: site.title,
    description: tr("site.privacy.meta_description", { title: site.title }),
    cacheControl: publicCacheControl(c),
    size: "wide",
    body: html`<h1>${tr("site.privacy.title")}</h1>
${policy.updatedAt ? html`<p class="muted">${tr("site.privacy.updated", { date: formatDate(tr.locale, policy.updatedAt) })}</p>` : ""}
<div class="site-text">${new SafeHtml(content)}</div>`,
  });
}

/**
 * `/terms-of-service` and `/terms-of-service/:date`: the terms in force (or the first upcoming
 * version) and each dated version, as `/api/v1/instance/terms_of_service[/:date]`. 404 when the
 * operator published none, or no version has that date.
 */
export async function termsPage(c: Context<HonoEnv>, date?: string): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const valid = date === undefined || /^\d{4}-\d{2}-\d{2}$/.test(date);
  const [terms, site] = await Promise.all([valid ? getTermsOfService(ctx, date) : undefined, loadSiteInfo(ctx)]);
  if (!terms) return notFoundPage(c, date === undefined ? tr("site.terms.none") : tr("site.terms.version_not_found"));
  const when = formatDate(tr.locale, terms.effectiveDate);
  const newer = terms.succeededBy;
  return sendPage(c, {
    title: date ? `${tr("site.terms.title")} (${when})` : tr("site.terms.title"),
    siteTitle: site.title,
    description: tr("site.terms.meta_description", { title: site.title }),
    cacheControl: publicCacheControl(c),
    size: "wide",
    head: date ? html`<link rel="canonical" href="/terms-of-service/${terms.effectiveDate}">` : undefined,
    body: html`<h1>${tr("site.terms.title")}</h1>
<p class="muted">${terms.effective ? tr("site.terms.effective", { date: when }) : tr("site.terms.upcoming", { date: when })}</p>
${
  newer
    ? html`<p class="notice">${tr("site.terms.superseded", { date: formatDate(tr.locale, newer) })} <a href="/terms-of-service/${newer}">${tr("site.terms.read_newer")}</a></p>`
    : ""
}
<div class="site-text">${new SafeHtml(sanitizeSiteHtml(terms.content))}</div>
${date ? html`<p><a href="/terms-of-service">${tr("site.terms.current_link")}</a></p>` : ""}`,
  });
}
