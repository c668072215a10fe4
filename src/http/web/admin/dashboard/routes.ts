import type { Context, Hono } from "hono";
import { isId } from "../../../../lib/ids.ts";
import {
  type Attention,
  type AuditFilter,
  type AuditRow,
  attention,
  auditLogPage,
  type BoundedCount,
  dashboardFigures,
  type JobSummary,
  type QueueState,
  queueState,
  staffAccounts,
} from "../../../../services/moderation/panel-dashboard.ts";
import type { HonoEnv } from "../../../types.ts";
import { type MessageKey, type Translate, t } from "../../i18n/index.ts";
import { html, type SafeHtml } from "../../pages/html.ts";
import { errorPage } from "../../pages/notices.ts";
import { Permission, requireStaff, type Staff } from "../guard.ts";
import { firstAdminPage, sendAdminPage } from "../layout.ts";
import { barChart } from "./charts.ts";

type C = Context<HonoEnv>;

const DAY_MS = 86_400_000;
/** The days the dashboard shows unless asked otherwise. */
const DEFAULT_DAYS = 30;
/** The longest span the dashboard draws (one bar a day). */
const MAX_DAYS = 366;
const LOG_PAGE = 40;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A `YYYY-MM-DD` day that exists, as its midnight UTC in ms; undefined otherwise. */
function parseDay(v: string | undefined): number | undefined {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const ms = Date.parse(`${v}T00:00:00Z`);
  return Number.isNaN(ms) || dayOf(ms) !== v ? undefined : ms;
}

/** The days asked for (`start_at`, `end_at`), else the last 30 days; `bad` when what was asked could not be used. */
function dashboardSpan(c: C): { start: string; end: string; bad: boolean } {
  const today = Date.parse(`${dayOf(Date.now())}T00:00:00Z`);
  const fallback = { start: dayOf(today - (DEFAULT_DAYS - 1) * DAY_MS), end: dayOf(today) };
  const rawStart = c.req.query("start_at");
  const rawEnd = c.req.query("end_at");
  if (!rawStart && !rawEnd) return { ...fallback, bad: false };
  const end = rawEnd ? parseDay(rawEnd) : today;
  const start = rawStart ? parseDay(rawStart) : end === undefined ? undefined : end - (DEFAULT_DAYS - 1) * DAY_MS;
  if (start === undefined || end === undefined || start > end || (end - start) / DAY_MS + 1 > MAX_DAYS) {
    return { ...fallback, bad: true };
  }
  return { start: dayOf(start), end: dayOf(end), bad: false };
}

const num = (tr: Translate, n: number | string) => Number(n).toLocaleString(tr.locale);
const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;
const countText = (tr: Translate, b: BoundedCount) => `${num(tr, b.count)}${b.more ? "+" : ""}`;

/** One "what needs attention" card: the count, linked to the page that handles it when the role may open it. */
async function attentionCard(
  me: Staff,
  tr: Translate,
  label: MessageKey,
  value: string,
  href: string,
  permission: number,
  warn: boolean,
): Promise<SafeHtml> {
  const text = html`<span class="value">${value}</span> <span class="label">${tr(label)}</span>`;
  const cls = warn ? "admin-card attention warn" : "admin-card attention";
  return (await me.can(permission))
    ? html`<li class="${cls}"><a href="${href}">${text}</a></li>`
    : html`<li class="${cls}">${text}</li>`;
}

async function attentionSection(me: Staff, tr: Translate, a: Attention): Promise<SafeHtml> {
  const cards = [
    await attentionCard(
      me,
      tr,
      "admin.dashboard.pending_sign_ups",
      countText(tr, a.pendingSignUps),
      "/admin/accounts?status=pending",
      Permission.manageUsers,
      a.pendingSignUps.count > 0,
    ),
    await attentionCard(
      me,
      tr,
      "admin.dashboard.open_reports",
      countText(tr, a.openReports),
      "/admin/reports",
      Permission.manageReports,
      a.openReports.count > 0,
    ),
    a.pendingTrends
      ? await attentionCard(
          me,
          tr,
          "admin.dashboard.pending_trends",
          countText(tr, a.pendingTrends),
          "/admin/trends",
          Permission.manageTaxonomies,
          a.pendingTrends.count > 0,
        )
      : html`<li class="admin-card attention"><span class="value">–</span> <span class="label">${tr("admin.dashboard.trends_off")}</span></li>`,
    await attentionCard(
      me,
      tr,
      "admin.dashboard.failing_deliveries",
      num(tr, a.failingDeliveries),
      "/admin/jobs",
      Permission.devops,
      a.failingDeliveries > 0,
    ),
    await attentionCard(
      me,
      tr,
      "admin.dashboard.failing_servers",
      num(tr, a.failingServers),
      "/admin/instances?failing=1",
      Permission.manageFederation,
      a.failingServers > 0,
    ),
  ];
  return html`<section class="admin-section" aria-labelledby="attention-heading" id="attention">
<h2 id="attention-heading">${tr("admin.dashboard.attention")}</h2>
<ul class="admin-cards dash-attention">${cards}</ul>
</section>`;
}

async function dashboardPage(c: C, me: Staff): Promise<Response> {
  const tr = t(c);
  const span = dashboardSpan(c);
  const [figures, needs] = await Promise.all([dashboardFigures(c.env.ctx, span.start, span.end), attention(c.env.ctx)]);
  const measureCards = figures.measures.map((m) => {
    const label = tr(`admin.dashboard.measure.${m.key}` as MessageKey);
    const points = m.data.map((d) => {
      const day = d.date.slice(0, 10);
      return { day, value: Number(d.value), text: tr("admin.dashboard.day_value", { day, value: num(tr, d.value) }) };
    });
    return html`<li class="admin-card measure" data-key="${m.key}">
<span class="value">${num(tr, m.total)}</span> <span class="label">${label}</span>
${m.previous_total !== undefined ? html`<span class="previous">${tr("admin.dashboard.previous", { value: num(tr, m.previous_total) })}</span>` : ""}
${barChart(tr("admin.dashboard.chart", { label }), points)}
</li>\n`;
  });
  const tables = figures.dimensions.map((d) => {
    const title = tr(`admin.dashboard.dimension.${d.key}` as MessageKey);
    const rows = d.data.map(
      (r) => html`<tr><td>${r.human_key}</td><td class="num">${r.human_value ?? num(tr, r.value)}</td></tr>\n`,
    );
    return html`<div class="dash-dimension" data-key="${d.key}"><table class="admin-table">
<caption>${title}</caption>
<thead><tr><th scope="col">${tr("admin.dashboard.name")}</th><th scope="col" class="num">${tr("admin.dashboard.value")}</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="2">${tr("admin.dashboard.nothing")}</td></tr>`}</tbody>
</table></div>\n`;
  });
  const body = html`<h1>${tr("admin.dashboard.title")}</h1>
${await attentionSection(me, tr, needs)}
<section class="admin-section" aria-labelledby="measures-heading">
<h2 id="measures-heading">${tr("admin.dashboard.measures")} <small>${tr("admin.dashboard.span", { start: span.start, end: span.end })}</small></h2>
<form method="get" action="/admin/dashboard" class="admin-filters" aria-label="${tr("admin.dashboard.range")}">
<label>${tr("admin.dashboard.start_at")} <input type="date" name="start_at" value="${span.start}"></label>
<label>${tr("admin.dashboard.end_at")} <input type="date" name="end_at" value="${span.end}"></label>
<button type="submit" class="secondary">${tr("admin.dashboard.show")}</button>
</form>
<ul class="admin-cards dash-measures">
${measureCards}</ul>
</section>
<section class="admin-section" aria-labelledby="dimensions-heading">
<h2 id="dimensions-heading">${tr("admin.dashboard.dimensions")}</h2>
<div class="dash-dimensions">
${tables}</div>
</section>`;
  return sendAdminPage(c, me, {
    title: tr("admin.dashboard.title"),
    body,
    current: "/admin/dashboard",
    error: span.bad ? tr("admin.dashboard.bad_range") : undefined,
  });
}

/** A duration in its largest whole unit. */
function duration(tr: Translate, ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return tr("admin.jobs.seconds", { n: s });
  if (s < 7200) return tr("admin.jobs.minutes", { n: Math.round(s / 60) });
  if (s < 172_800) return tr("admin.jobs.hours", { n: Math.round(s / 3600) });
  return tr("admin.jobs.days", { n: Math.round(s / 86_400) });
}

const JOB_STATES = ["waiting", "delayed", "running", "dead"] as const;

const firstLine = (s: string | null) => (s ?? "").split("\n")[0]?.slice(0, 500) ?? "";

function failingRow(tr: Translate, f: JobSummary): SafeHtml {
  const dead = f.state === "dead";
  const badge = dead
    ? html`<span class="badge bad">${tr("admin.jobs.state.dead")}</span>`
    : html`<span class="badge warn">${tr("admin.jobs.retrying")}</span>`;
  const full = f.lastError ?? "";
  const error =
    full.includes("\n") || full.length > 500
      ? html`<details><summary>${firstLine(full)}</summary><pre>${full.slice(0, 4000)}</pre></details>`
      : full;
  return html`<tr data-job="${f.id}"><td>${f.id}</td><td><code>${f.name}</code></td><td>${badge}</td>
<td class="num">${f.attempts}/${f.maxAttempts}</td><td>${dead ? "" : html`<time datetime="${f.runAt.toISOString()}">${when(f.runAt.toISOString())}</time>`}</td><td class="job-error">${error}</td></tr>\n`;
}

function jobsBody(c: C, tr: Translate, state: QueueState): SafeHtml {
  const names = [...new Set(state.counts.map((x) => x.name))].sort();
  const countOf = (name: string, s: string) =>
    state.counts.filter((x) => x.name === name && x.state === s).reduce((n, x) => n + x.count, 0);
  const rows = names.map((name) => {
    const cells = JOB_STATES.map((s) => {
      const n = countOf(name, s);
      const cls = s === "dead" && n > 0 ? "num dead" : "num";
      return html`<td class="${cls}">${num(tr, n)}</td>`;
    });
    const total = JOB_STATES.reduce((n, s) => n + countOf(name, s), 0);
    return html`<tr data-name="${name}"><th scope="row"><code>${name}</code></th>${cells}<td class="num">${num(tr, total)}</td></tr>\n`;
  });
  const o = state.oldestWaiting;
  const oldest = o
    ? html`<p id="oldest-waiting">${tr("admin.jobs.oldest_text", {
        name: o.name,
        id: o.id,
        since: when(o.runAt.toISOString()),
        wait: duration(tr, Date.now() - o.runAt.getTime()),
      })}</p>`
    : html`<p id="oldest-waiting">${tr("admin.jobs.oldest_none")}</p>`;
  return html`<h1>${tr("admin.jobs.title")}</h1>
<p>${tr("admin.jobs.intro", { kind: c.env.ctx.queue.kind })}</p>
<section class="admin-section" aria-labelledby="counts-heading">
<h2 id="counts-heading">${tr("admin.jobs.counts")}</h2>
${
  rows.length > 0
    ? html`<table class="admin-table" id="job-counts">
<thead><tr><th scope="col">${tr("admin.jobs.name")}</th>${JOB_STATES.map((s) => html`<th scope="col" class="num">${tr(`admin.jobs.state.${s}`)}</th>`)}<th scope="col" class="num">${tr("admin.jobs.state.total")}</th></tr></thead>
<tbody>
${rows}</tbody>
</table>`
    : html`<p>${tr("admin.jobs.empty")}</p>`
}
</section>
<section class="admin-section" aria-labelledby="oldest-heading">
<h2 id="oldest-heading">${tr("admin.jobs.oldest")}</h2>
${oldest}
</section>
<section class="admin-section" aria-labelledby="failing-heading">
<h2 id="failing-heading">${tr("admin.jobs.failing")}</h2>
<p>${tr("admin.jobs.failing_intro")}</p>
${
  state.failing.length > 0
    ? html`<table class="admin-table" id="failing-jobs">
<thead><tr><th scope="col">${tr("admin.jobs.id")}</th><th scope="col">${tr("admin.jobs.name")}</th><th scope="col">${tr("admin.jobs.state")}</th><th scope="col" class="num">${tr("admin.jobs.attempts")}</th><th scope="col">${tr("admin.jobs.run_at")}</th><th scope="col">${tr("admin.jobs.last_error")}</th></tr></thead>
<tbody>
${state.failing.map((f) => failingRow(tr, f))}</tbody>
</table>`
    : html`<p>${tr("admin.jobs.failing_none")}</p>`
}
</section>`;
}

/** Actions the audit log's filter offers (any other `[a-z_]+` value in the address is used as given). */
const ACTIONS = [
  "approve",
  "reject",
  "create",
  "update",
  "destroy",
  "suspend",
  "unsuspend",
  "silence",
  "unsilence",
  "sensitive",
  "unsensitive",
  "disable",
  "enable",
  "resolve",
  "reopen",
  "assigned_to_self",
  "unassigned",
  "change_role",
  "publish",
  "unpublish",
  "copy",
];

/** Target types the audit log's filter offers. */
const TARGET_TYPES = [
  "Account",
  "AccountWarning",
  "Announcement",
  "CanonicalEmailBlock",
  "CustomEmoji",
  "DomainAllow",
  "DomainBlock",
  "EmailDomainBlock",
  "Form::AdminSettings",
  "IpBlock",
  "PreviewCard",
  "PreviewCardProvider",
  "Report",
  "ReportNote",
  "Rule",
  "Status",
  "Tag",
  "TermsOfService",
  "User",
  "UserRole",
];

interface LogQuery {
  accountId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
}

function logQuery(c: C): LogQuery {
  const q = (name: string) => {
    const v = c.req.query(name)?.trim();
    return v ? v : undefined;
  };
  const accountId = q("account_id");
  const action = q("action");
  const targetType = q("target_type");
  return {
    // As the admin API: an account id that is no id matches nothing.
    accountId: accountId === undefined ? undefined : isId(accountId) ? accountId : "0",
    action: action === undefined ? undefined : /^[a-z_]{1,40}$/.test(action) ? action : "?",
    targetType: targetType?.slice(0, 60),
    targetId: q("target_id")?.slice(0, 60),
  };
}

function logLink(q: LogQuery, cursor: Record<string, string>): string {
  const p = new URLSearchParams();
  if (q.accountId) p.set("account_id", q.accountId);
  if (q.action) p.set("action", q.action);
  if (q.targetType) p.set("target_type", q.targetType);
  if (q.targetId) p.set("target_id", q.targetId);
  for (const [k, v] of Object.entries(cursor)) p.set(k, v);
  return `/admin/action_logs?${p}`;
}

const options = (values: readonly (readonly [string, string])[], selected: string | undefined) =>
  values.map(([v, label]) => html`<option value="${v}"${v === selected ? html` selected` : ""}>${label}</option>`);

/** Where a log row's target can be looked at in the panel. */
function targetHref(row: AuditRow): string | undefined {
  const { targetType, targetId } = row.entry;
  if (!targetId) return undefined;
  if (targetType === "Account") return `/admin/accounts/${targetId}`;
  if (targetType === "Report") return `/admin/reports/${targetId}`;
  return undefined;
}

function logRow(tr: Translate, row: AuditRow): SafeHtml {
  const e = row.entry;
  const who =
    e.accountId === null
      ? tr("admin.logs.command_line")
      : row.actor
        ? html`<a href="/admin/accounts/${row.actor.id}">@${row.actor.username}</a>`
        : tr("admin.logs.deleted_account");
  // The summary begins with the actor's name, already in the first column.
  const prefix = e.accountId === null ? "The gannet command " : row.actor ? `@${row.actor.username} ` : "";
  const what = prefix && e.summary.startsWith(prefix) ? e.summary.slice(prefix.length) : e.summary;
  const name = e.humanIdentifier ?? e.targetId ?? "";
  const href = targetHref(row);
  return html`<tr data-id="${e.id}" data-action="${e.action}" data-target-type="${e.targetType}">
<td class="who">${who}</td>
<td class="what"><span class="badge">${e.action}</span> ${what}</td>
<td class="target">${href ? html`<a href="${href}">${name}</a>` : name} <small class="target-type">${e.targetType}</small></td>
<td class="when"><time datetime="${e.createdAt}">${when(e.createdAt)}</time></td>
</tr>\n`;
}

async function actionLogsPage(c: C, me: Staff): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const q = logQuery(c);
  const cursor = (name: string) => {
    const v = c.req.query(name);
    return v && isId(v) ? v : undefined;
  };
  const window = { maxId: cursor("max_id"), minId: cursor("min_id"), limit: LOG_PAGE };
  if (window.maxId) window.minId = undefined;
  const filter: AuditFilter = {
    accountId: q.accountId,
    action: q.action,
    targetType: q.targetType,
    targetId: q.targetId,
  };
  const [page, staff] = await Promise.all([auditLogPage(ctx, filter, window), staffAccounts(ctx)]);
  const staffOptions: [string, string][] = staff.map((a) => [a.id, `@${a.username}`]);
  if (q.accountId && !staffOptions.some(([id]) => id === q.accountId)) staffOptions.push([q.accountId, q.accountId]);
  const actions = ACTIONS.includes(q.action ?? "") || !q.action ? ACTIONS : [...ACTIONS, q.action];
  const types =
    TARGET_TYPES.includes(q.targetType ?? "") || !q.targetType ? TARGET_TYPES : [...TARGET_TYPES, q.targetType];
  const any = tr("admin.logs.any");
  const filters = html`<form method="get" action="/admin/action_logs" class="admin-filters" aria-label="${tr("admin.filter")}">
<label>${tr("admin.logs.account")} <select name="account_id"><option value="">${any}</option>${options(staffOptions, q.accountId)}</select></label>
<label>${tr("admin.logs.action")} <select name="action"><option value="">${any}</option>${options(
    actions.map((a) => [a, a] as const),
    q.action,
  )}</select></label>
<label>${tr("admin.logs.target_type")} <select name="target_type"><option value="">${any}</option>${options(
    types.map((x) => [x, x] as const),
    q.targetType,
  )}</select></label>
<label>${tr("admin.logs.target_id")} <input type="text" name="target_id" value="${q.targetId ?? ""}" size="12"></label>
<button type="submit">${tr("admin.filter")}</button>
<a href="/admin/action_logs">${tr("admin.reset")}</a>
</form>`;
  const links: SafeHtml[] = [];
  if (page.newerFrom)
    links.push(html`<a rel="prev" href="${logLink(q, { min_id: page.newerFrom })}">${tr("admin.newer")}</a>`);
  if (page.olderFrom)
    links.push(html`<a rel="next" href="${logLink(q, { max_id: page.olderFrom })}">${tr("admin.older")}</a>`);
  const table =
    page.rows.length > 0
      ? html`<table class="admin-table" id="action-logs">
<thead><tr><th scope="col">${tr("admin.logs.who")}</th><th scope="col">${tr("admin.logs.what")}</th><th scope="col">${tr("admin.logs.target")}</th><th scope="col">${tr("admin.logs.when")}</th></tr></thead>
<tbody>
${page.rows.map((r) => logRow(tr, r))}</tbody>
</table>`
      : html`<p id="no-actions">${page.olderFrom && q.action ? tr("admin.logs.look_further") : tr("admin.logs.none")}</p>`;
  const body = html`<h1>${tr("admin.logs.title")}</h1>
<p>${tr("admin.logs.intro")}</p>
${filters}
${table}
${links.length > 0 ? html`<nav class="admin-actions pager" aria-label="${tr("admin.logs.pages")}">${links}</nav>` : ""}`;
  return sendAdminPage(c, me, { title: tr("admin.logs.title"), body, current: "/admin/action_logs" });
}

/** The moderation panel's dashboard pages (docs/web-admin-dashboard.md). */
export function adminDashboardPages(app: Hono<HonoEnv>): void {
  // The panel's front door: the first page of the side menu this role may open.
  app.get("/admin", async (c) => {
    const me = await requireStaff(c, 0);
    if (me instanceof Response) return me;
    const first = await firstAdminPage(me);
    if (!first) {
      const tr = t(c);
      return errorPage(c, 403, tr("admin.forbidden"), tr("admin.forbidden_text"));
    }
    return c.redirect(first, 302);
  });

  app.get("/admin/dashboard", async (c) => {
    const me = await requireStaff(c, Permission.viewDashboard);
    if (me instanceof Response) return me;
    return dashboardPage(c, me);
  });

  app.get("/admin/jobs", async (c) => {
    const me = await requireStaff(c, Permission.devops);
    if (me instanceof Response) return me;
    const tr = t(c);
    const state = await queueState(c.env.ctx);
    return sendAdminPage(c, me, {
      title: tr("admin.jobs.title"),
      body: jobsBody(c, tr, state),
      current: "/admin/jobs",
    });
  });

  app.get("/admin/action_logs", async (c) => {
    const me = await requireStaff(c, Permission.viewAuditLog);
    if (me instanceof Response) return me;
    return actionLogsPage(c, me);
  });
}
