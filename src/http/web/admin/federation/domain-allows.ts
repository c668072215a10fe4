import type { Context, Hono } from "hono";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as domains from "../../../../services/moderation/domain-blocks.ts";
import type { HonoEnv } from "../../../types.ts";
import { field } from "../../guard.ts";
import { t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { buttonForm, csrfField, done, formatDate, notFoundPage, paged, refusal, windowOf } from "./common.ts";

const PATH = "/admin/domain_allows";
const P = Permission.manageFederation;

async function listPage(
  c: Context<HonoEnv>,
  me: Staff,
  opts: { domain?: string; error?: string; status?: number } = {},
): Promise<Response> {
  const tr = t(c);
  const { rows, older } = paged(c, await domains.listDomainAllows(c.env.ctx, windowOf(c)), PATH);
  const mode = c.env.ctx.config.limitedFederationMode;
  const body = html`<h1>${tr("admin.federation.allows_title")}</h1>
<p>${tr("admin.federation.allows_intro")}</p>
<p class="${mode ? "notice" : "muted"}">${mode ? tr("admin.federation.limited_on") : tr("admin.federation.limited_off")}</p>
<form method="post" action="${PATH}" class="admin-filters">
${csrfField(me.csrf)}
<label for="domain">${tr("admin.federation.domain")}<input type="text" id="domain" name="domain" value="${opts.domain ?? ""}" required maxlength="253" autocomplete="off"></label>
<button type="submit">${tr("admin.federation.allow_add")}</button>
</form>
${
  rows.length === 0
    ? html`<p class="muted">${tr("admin.none")}</p>`
    : html`<table class="admin-table domain-allows">
<thead><tr><th scope="col">${tr("admin.federation.domain")}</th><th scope="col">${tr("admin.federation.created_at")}</th><th scope="col"><span class="visually-hidden">${tr("admin.federation.actions")}</span></th></tr></thead>
<tbody>
${rows.map(
  (
    a,
  ) => html`<tr data-domain="${a.domain}"><td><a href="/admin/instances/${encodeURIComponent(a.domain)}">${a.domain}</a></td>
<td>${formatDate(tr.locale, a.createdAt)}</td>
<td>${buttonForm(`${PATH}/${a.id}/delete`, me.csrf, tr("admin.federation.allow_remove"), a.domain)}</td></tr>`,
)}
</tbody></table>`
}
${older}`;
  return sendAdminPage(c, me, {
    title: tr("admin.federation.allows_title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
    error: opts.error,
    status: opts.status,
  });
}

/** The moderation panel's domain allows (limited-federation mode; Manage Federation). */
export function domainAllowPages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.post(PATH, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const typed = field(f.params, "domain", 300);
    try {
      const domain = domains.blockDomain(c.env.ctx, typed);
      const { created } = await domains.createDomainAllow(c.env.ctx, moderatorOf(f.me.account), domain);
      return done(c, PATH, created ? "admin.federation.allow_created" : "admin.federation.allow_exists");
    } catch (e) {
      const r = refusal(e);
      if (!r) throw e;
      return listPage(c, f.me, { domain: typed, error: r.message, status: 422 });
    }
  });

  app.post(`${PATH}/:id/delete`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    let allow: domains.InstanceDomainAllow;
    try {
      allow = await domains.findDomainAllow(c.env.ctx, c.req.param("id"));
    } catch (e) {
      if (refusal(e)) return notFoundPage(c);
      throw e;
    }
    await domains.destroyDomainAllow(c.env.ctx, moderatorOf(f.me.account), allow);
    return done(c, PATH, "admin.federation.allow_removed");
  });
}
