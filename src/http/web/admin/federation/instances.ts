import type { Context, Hono } from "hono";
import { markAvailable } from "../../../../services/federation/availability.ts";
import {
  type DeliveryHealth,
  instanceDetail,
  type KnownInstance,
  listInstances,
} from "../../../../services/federation/instances.ts";
import type { HonoEnv } from "../../../types.ts";
import { type Translate, t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { sendAdminPage } from "../layout.ts";
import { buttonForm, done, formatDate, notFoundPage } from "./common.ts";

const PATH = "/admin/instances";
const P = Permission.manageFederation;
const PER_PAGE = 50;

/** A domain as accounts name it: host names (with a port) only. */
const DOMAIN_RE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

function blockState(tr: Translate, i: KnownInstance): SafeHtml {
  const parts: SafeHtml[] = [];
  if (i.block) {
    const cls = i.block.severity === "suspend" ? "badge bad" : i.block.severity === "silence" ? "badge warn" : "badge";
    const own = i.block.domain === i.domain;
    parts.push(
      html`<span class="${cls}">${tr(`admin.federation.severity.${i.block.severity}`)}</span>${own ? "" : html` <span class="muted">${tr("admin.federation.via", { domain: i.block.domain })}</span>`}`,
    );
  }
  if (i.allow) parts.push(html`<span class="badge good">${tr("admin.federation.allowed")}</span>`);
  return html`${parts}`;
}

function healthCell(tr: Translate, h: DeliveryHealth | undefined): SafeHtml {
  if (!h) return html`<span class="muted">${tr("admin.federation.no_deliveries")}</span>`;
  const failing = h.unavailableSince
    ? html`<span class="badge bad unavailable">${tr("admin.federation.unavailable")}</span>`
    : h.consecutiveFailures > 0
      ? html`<span class="badge bad">${tr.plural("admin.federation.failures_in_row", h.consecutiveFailures)}</span>`
      : html`<span class="badge good">${tr("admin.federation.healthy")}</span>`;
  const last = h.lastSuccessAt
    ? tr("admin.federation.last_success_at", { date: formatDate(tr.locale, h.lastSuccessAt, true) })
    : tr("admin.federation.never_succeeded");
  return html`${failing} <span class="muted">${last}</span>`;
}

async function listPage(c: Context<HonoEnv>, me: Staff): Promise<Response> {
  const tr = t(c);
  const q = (c.req.query("q") ?? "").trim().slice(0, 200);
  const failing = c.req.query("failing") === "1";
  const blocked = c.req.query("blocked") === "1";
  const page = Math.min(10_000, Math.max(1, Number.parseInt(c.req.query("page") ?? "1", 10) || 1));
  const { instances, more } = await listInstances(c.env.ctx, { q: q || undefined, failing, blocked }, page, PER_PAGE);
  const query = (p: number) => {
    const u = new URLSearchParams();
    if (q) u.set("q", q);
    if (failing) u.set("failing", "1");
    if (blocked) u.set("blocked", "1");
    if (p > 1) u.set("page", String(p));
    const s = u.toString();
    return s ? `${PATH}?${s}` : PATH;
  };
  const body = html`<h1>${tr("admin.federation.instances_title")}</h1>
<p>${tr("admin.federation.instances_intro")}</p>
<form method="get" action="${PATH}" class="admin-filters" role="search">
<label for="q">${tr("admin.federation.domain")}<input type="search" id="q" name="q" value="${q}" maxlength="200"></label>
<label class="check" for="failing"><input type="checkbox" id="failing" name="failing" value="1"${failing ? html` checked` : ""}><span>${tr("admin.federation.failing_only")}</span></label>
<label class="check" for="blocked"><input type="checkbox" id="blocked" name="blocked" value="1"${blocked ? html` checked` : ""}><span>${tr("admin.federation.blocked_only")}</span></label>
<button type="submit">${tr("admin.filter")}</button>
<a href="${PATH}">${tr("admin.reset")}</a>
</form>
${
  instances.length === 0
    ? html`<p class="muted">${tr("admin.none")}</p>`
    : html`<table class="admin-table instances">
<thead><tr><th scope="col">${tr("admin.federation.domain")}</th><th scope="col" class="num">${tr("admin.federation.accounts")}</th><th scope="col" class="num">${tr("admin.federation.followed_from_here")}</th><th scope="col" class="num">${tr("admin.federation.following_here")}</th><th scope="col" class="num">${tr("admin.federation.reports")}</th><th scope="col">${tr("admin.federation.moderation")}</th><th scope="col">${tr("admin.federation.delivery")}</th></tr></thead>
<tbody>
${instances.map(
  (i) => html`<tr data-domain="${i.domain}"><td><a href="${PATH}/${encodeURIComponent(i.domain)}">${i.domain}</a></td>
<td class="num">${i.counts.accounts}</td><td class="num">${i.counts.followedFromHere}</td><td class="num">${i.counts.followingHere}</td><td class="num">${i.counts.reports}</td>
<td>${blockState(tr, i)}</td><td>${healthCell(tr, i.health)}</td></tr>`,
)}
</tbody></table>`
}
<nav class="admin-actions" aria-label="${tr("common.pagination")}">${page > 1 ? html`<a href="${query(page - 1)}" rel="prev">${tr("admin.newer")}</a>` : ""}${more ? html`<a href="${query(page + 1)}" rel="next">${tr("admin.older")}</a>` : ""}</nav>`;
  return sendAdminPage(c, me, { title: tr("admin.federation.instances_title"), body, current: PATH });
}

async function detailPage(c: Context<HonoEnv>, me: Staff, domain: string): Promise<Response> {
  const tr = t(c);
  const i = await instanceDetail(c.env.ctx, domain);
  const h = i.health;
  const card = (value: string | number, label: string, cls = "") =>
    html`<div class="admin-card ${cls}"><div class="value">${value}</div><div class="label">${label}</div></div>`;
  const when = (iso: string | null | undefined) =>
    iso ? formatDate(tr.locale, iso, true) : tr("admin.federation.never");
  const body = html`<h1>${domain}</h1>
<div class="admin-cards">
${card(i.counts.accounts, tr("admin.federation.accounts"))}
${card(i.counts.followedFromHere, tr("admin.federation.followed_from_here"))}
${card(i.counts.followingHere, tr("admin.federation.following_here"))}
${card(i.counts.reports, tr("admin.federation.reports"))}
</div>
<p><a href="/admin/accounts?origin=remote&amp;by_domain=${encodeURIComponent(domain)}">${tr("admin.federation.see_accounts")}</a></p>
<section class="admin-section moderation-state">
<h2>${tr("admin.federation.moderation")}</h2>
${
  i.block
    ? html`<p>${blockState(tr, i)} ${i.block.publicComment ?? ""}</p>
<p class="admin-actions"><a href="/admin/domain_blocks/${i.block.id}/edit">${tr("admin.federation.block_change")}<span class="visually-hidden"> ${i.block.domain}</span></a></p>`
    : html`<p>${tr("admin.federation.not_blocked")}${i.allow ? html` ${blockState(tr, i)}` : ""}</p>
<p class="admin-actions"><a class="button" href="/admin/domain_blocks/new?domain=${encodeURIComponent(domain)}">${tr("admin.federation.block_this")}</a></p>`
}
</section>
<section class="admin-section delivery-health">
<h2>${tr("admin.federation.delivery")}</h2>
<dl class="health">
<dt>${tr("admin.federation.last_success")}</dt><dd class="last-success">${when(h?.lastSuccessAt)}</dd>
<dt>${tr("admin.federation.last_failure")}</dt><dd class="last-failure">${when(h?.lastFailureAt)}${h?.lastError ? html` <code>${h.lastError}</code>` : ""}</dd>
<dt>${tr("admin.federation.failures_row_label")}</dt><dd class="failures">${h ? (h.consecutiveFailures > 0 ? html`<span class="badge bad">${h.consecutiveFailures}</span>` : html`<span class="badge good">0</span>`) : "0"}</dd>
<dt>${tr("admin.federation.totals")}</dt><dd class="totals">${tr("admin.federation.totals_value", { ok: h?.successesTotal ?? 0, failed: h?.failuresTotal ?? 0 })}</dd>
<dt>${tr("admin.federation.availability")}</dt><dd class="availability">${
    h?.unavailableSince
      ? html`<span class="badge bad">${tr("admin.federation.unavailable")}</span> ${tr("admin.federation.unavailable_since", { date: when(h.unavailableSince) })}
${buttonForm(`${PATH}/${encodeURIComponent(domain)}/restart_delivery`, me.csrf, tr("admin.federation.restart_delivery"), domain, "button")}`
      : h && h.failureDays > 0
        ? tr.plural("admin.federation.failure_days", h.failureDays)
        : tr("admin.federation.available")
  }</dd>
<dt>${tr("admin.federation.queued")}</dt><dd class="queued">${tr("admin.federation.queued_value", { waiting: i.queued.waiting, retrying: i.queued.retrying, running: i.queued.running })}${i.queued.capped ? html` <span class="muted">${tr("admin.federation.queued_capped")}</span>` : ""}</dd>
</dl>
</section>
<p><a href="${PATH}">${tr("admin.federation.back_to_instances")}</a></p>`;
  return sendAdminPage(c, me, { title: domain, body, current: PATH });
}

/** The moderation panel's known servers (Manage Federation). */
export function instancePages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  // Mastodon's "Restart delivery": the server is available again (its failure days forgotten).
  app.post(`${PATH}/:domain/restart_delivery`, async (c) => {
    const f = await staffForm(c, P);
    if (f instanceof Response) return f;
    const domain = (c.req.param("domain") ?? "").toLowerCase();
    if (domain.length > 260 || !DOMAIN_RE.test(domain)) return notFoundPage(c);
    await markAvailable(c.env.ctx, domain);
    return done(c, `${PATH}/${encodeURIComponent(domain)}`, "admin.federation.delivery_restarted");
  });

  app.get(`${PATH}/:domain`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    const domain = (c.req.param("domain") ?? "").toLowerCase();
    if (domain.length > 260 || !DOMAIN_RE.test(domain)) return notFoundPage(c);
    return detailPage(c, me, domain);
  });
}
