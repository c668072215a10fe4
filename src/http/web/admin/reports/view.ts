import type { ActionLogEntry } from "../../../../services/moderation/action-log.ts";
import type { AccountWarning } from "../../../../services/moderation/warnings.ts";
import type { ReportNote, WarningPresetChoice } from "../../../../services/reports/panel.ts";
import type { MessageKey, Translate } from "../../i18n/index.ts";
import { html, SafeHtml } from "../../pages/html.ts";

/**
 * The markup of the report pages, from the admin API's JSON (Admin::Report with its
 * Admin::Accounts and statuses): the list's table and one report's sections and forms.
 */

type Json = Record<string, any>;

/** The built-in warning texts offered beside the server's own presets (i18n keys). */
export const STANDARD_PRESETS = ["spam", "harassment", "rules", "sensitive"] as const;

/** The account actions of the act form, in Mastodon's order. */
export const ACT_TYPES = ["none", "sensitive", "disable", "silence", "suspend"] as const;

/** `@alice` or `@bob@remote.example` of an Admin::Account. */
export function acctOfAdmin(a: Json | null | undefined): string {
  if (!a) return "";
  return `@${a.account?.acct ?? a.username}`;
}

/** A link to an account's panel page. */
export function adminAccountLink(a: Json | null | undefined, tr: Translate): SafeHtml {
  if (!a) return html`<span class="muted">${tr("admin.reports.nobody")}</span>`;
  return html`<a href="/admin/accounts/${a.id}">${acctOfAdmin(a)}</a>`;
}

/** How long ago: minutes, hours or days. */
export function ageText(tr: Translate, iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return tr.plural("admin.reports.age.minutes", minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return tr.plural("admin.reports.age.hours", hours);
  return tr.plural("admin.reports.age.days", Math.floor(hours / 24));
}

const when = (iso: string) => html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")}</time>`;

export function categoryText(tr: Translate, category: string): string {
  return tr(`admin.reports.category.${category}` as MessageKey);
}

/** The list's table. */
export function reportTable(tr: Translate, reports: Json[]): SafeHtml {
  if (reports.length === 0) return html`<p class="admin-reports-empty">${tr("admin.reports.none")}</p>`;
  const rows = reports.map(
    (r) => html`<tr data-id="${r.id}">
<td><a href="/admin/reports/${r.id}">${tr("admin.reports.report_n", { id: r.id })}</a></td>
<td>${adminAccountLink(r.target_account, tr)} <a class="admin-reports-filter-link" href="/admin/reports?target_account_id=${r.target_account.id}${r.action_taken ? "&resolved=1" : ""}" aria-label="${tr("admin.reports.filter.about", { acct: acctOfAdmin(r.target_account) })}">⌕</a></td>
<td>${adminAccountLink(r.account, tr)}</td>
<td>${categoryText(tr, r.category)}</td>
<td class="num">${(r.statuses as unknown[]).length}</td>
<td>${adminAccountLink(r.assigned_account, tr)}</td>
<td><time datetime="${r.created_at}">${ageText(tr, r.created_at)}</time></td>
</tr>`,
  );
  return html`<div class="admin-reports-scroll"><table class="admin-table admin-reports-table">
<thead><tr><th scope="col">${tr("admin.reports.col.report")}</th><th scope="col">${tr("admin.reports.col.target")}</th><th scope="col">${tr("admin.reports.col.reporter")}</th><th scope="col">${tr("admin.reports.col.category")}</th><th scope="col" class="num">${tr("admin.reports.col.posts")}</th><th scope="col">${tr("admin.reports.col.assigned")}</th><th scope="col">${tr("admin.reports.col.age")}</th></tr></thead>
<tbody>
${rows}</tbody></table></div>`;
}

export interface ListFilters {
  resolved: boolean;
  origin: "" | "local" | "remote";
  target: string;
  targetAccountId?: string;
}

/** The list's filter form (GET). */
export function filterForm(tr: Translate, f: ListFilters): SafeHtml {
  const opt = (value: string, current: string, label: string) =>
    html`<option value="${value}"${value === current ? html` selected` : ""}>${label}</option>`;
  return html`<form class="admin-filters" method="get" action="/admin/reports" role="search">
<label>${tr("admin.reports.filter.status")}<select name="resolved">${opt("", f.resolved ? "1" : "", tr("admin.reports.filter.unresolved"))}${opt("1", f.resolved ? "1" : "", tr("admin.reports.filter.resolved"))}</select></label>
<label>${tr("admin.reports.filter.origin")}<select name="origin">${opt("", f.origin, tr("admin.reports.filter.origin_all"))}${opt("local", f.origin, tr("admin.reports.filter.local"))}${opt("remote", f.origin, tr("admin.reports.filter.remote"))}</select></label>
<label>${tr("admin.reports.filter.target")}<input type="text" name="target" value="${f.target}" autocomplete="off" spellcheck="false"></label>
<button type="submit">${tr("admin.filter")}</button> <a href="/admin/reports">${tr("admin.reset")}</a>
</form>`;
}

/** One small POST form: a button (and hidden fields) with the CSRF token. */
export function postButton(action: string, csrf: string, label: string, cls = ""): SafeHtml {
  return html`<form method="post" action="${action}"><input type="hidden" name="authenticity_token" value="${csrf}"><button type="submit"${cls ? html` class="${cls}"` : ""}>${label}</button></form>`;
}

/** A reported post as staff see it: the content warning, the text, the attachments with their descriptions. */
function reportedPost(tr: Translate, s: Json): SafeHtml {
  const media = (s.media_attachments ?? []) as Json[];
  const cw = typeof s.spoiler_text === "string" && s.spoiler_text !== "" ? s.spoiler_text : "";
  return html`<li><article class="admin-report-post" data-id="${s.id}">
<p class="admin-report-post-meta">${when(s.created_at)} · ${s.visibility}${s.sensitive ? html` · <span class="badge warn">${tr("admin.reports.sensitive")}</span>` : ""}${s.url ? html` · <a href="${s.url}">${tr("admin.reports.open_post")}</a>` : ""}</p>
${cw ? html`<p class="admin-report-cw"><strong>${tr("admin.reports.cw")}</strong> ${cw}</p>` : ""}
<div class="admin-report-content">${new SafeHtml(String(s.content ?? ""))}</div>
${
  media.length > 0
    ? html`<p class="admin-report-media-heading">${tr("admin.reports.media")}</p><ul class="admin-report-media">${media.map(
        (m) =>
          html`<li><a href="${m.url ?? m.remote_url ?? "#"}">${m.type}</a>: ${
            m.description
              ? html`<span class="alt">${m.description}</span>`
              : html`<em>${tr("admin.reports.no_alt")}</em>`
          }</li>`,
      )}</ul>`
    : ""
}
</article></li>`;
}

export interface ShowInput {
  report: Json;
  csrf: string;
  myAccountId: string;
  targetLocal: boolean;
  notes: ReportNote[];
  noteAuthors: Map<string, string>;
  warnings: AccountWarning[];
  history: ActionLogEntry[];
  presets: WarningPresetChoice[];
  /** Whether the staff member may act on accounts (Manage Users, as the admin API's action). */
  mayAct: boolean;
  /** The act form's values after a refused attempt. */
  act?: { type: string; preset: string; text: string; email: boolean };
}

/** One report's page body. */
export function reportBody(tr: Translate, v: ShowInput): SafeHtml {
  const r = v.report;
  const base = `/admin/reports/${r.id}`;
  const target = r.target_account as Json;
  const states = (
    [
      ["suspended", "admin.reports.account_state.suspended"],
      ["silenced", "admin.reports.account_state.silenced"],
      ["disabled", "admin.reports.account_state.disabled"],
      ["sensitized", "admin.reports.account_state.sensitized"],
    ] as const
  )
    .filter(([k]) => target[k])
    .map(([, key]) => html` <span class="badge bad">${tr(key)}</span>`);
  const assignedToMe = r.assigned_account?.id === v.myAccountId;
  const actions = html`<div class="admin-actions">
${assignedToMe ? "" : postButton(`${base}/assign_to_self`, v.csrf, tr("admin.reports.assign"))}
${r.assigned_account ? postButton(`${base}/unassign`, v.csrf, tr("admin.reports.unassign")) : ""}
${r.action_taken ? postButton(`${base}/reopen`, v.csrf, tr("admin.reports.reopen")) : postButton(`${base}/resolve`, v.csrf, tr("admin.reports.resolve"))}
</div>`;
  const rules = (r.rules as Json[]).map((rule) => html`<li>${rule.text}</li>`);
  const facts = html`<dl class="admin-report-facts">
<dt>${tr("admin.reports.target")}</dt><dd>${adminAccountLink(target, tr)}${states}</dd>
<dt>${tr("admin.reports.reporter")}</dt><dd>${adminAccountLink(r.account, tr)}</dd>
<dt>${tr("admin.reports.category")}</dt><dd>${categoryText(tr, r.category)}</dd>
${rules.length > 0 ? html`<dt>${tr("admin.reports.rules")}</dt><dd><ul class="admin-report-rules">${rules}</ul></dd>` : ""}
<dt>${tr("admin.reports.filed")}</dt><dd>${when(r.created_at)} (${ageText(tr, r.created_at)})</dd>
<dt>${tr("admin.reports.forwarded")}</dt><dd>${r.forwarded ? tr("admin.yes") : tr("admin.no")}</dd>
<dt>${tr("admin.reports.assigned")}</dt><dd class="admin-report-assigned">${adminAccountLink(r.assigned_account, tr)}</dd>
<dt>${tr("admin.reports.state")}</dt><dd class="admin-report-state">${
    r.action_taken
      ? html`<span class="badge good">${tr("admin.reports.state.resolved", { who: acctOfAdmin(r.action_taken_by_account) || "—" })}</span> ${r.action_taken_at ? when(r.action_taken_at) : ""}`
      : html`<span class="badge warn">${tr("admin.reports.state.open")}</span>`
  }</dd>
</dl>`;
  const comment = html`<section class="admin-section" aria-labelledby="report-comment"><h2 id="report-comment">${tr("admin.reports.comment")}</h2>
${r.comment ? html`<blockquote class="admin-report-comment">${r.comment}</blockquote>` : html`<p class="muted">${tr("admin.reports.no_comment")}</p>`}</section>`;
  const statuses = r.statuses as Json[];
  const posts = html`<section class="admin-section" aria-labelledby="report-posts"><h2 id="report-posts">${tr("admin.reports.posts")}</h2>
${statuses.length > 0 ? html`<ul class="admin-report-posts">${statuses.map((s) => reportedPost(tr, s))}</ul>` : html`<p class="muted">${tr("admin.reports.no_posts")}</p>`}</section>`;
  return html`<p><a href="/admin/reports">← ${tr("admin.reports.back")}</a></p>
<h1>${tr("admin.reports.report_n", { id: r.id })}</h1>
${actions}
${facts}
${comment}
${posts}
${notesSection(tr, v, base)}
${actSection(tr, v, base)}
${warningsSection(tr, v)}
${historySection(tr, v)}`;
}

function notesSection(tr: Translate, v: ShowInput, base: string): SafeHtml {
  const notes = v.notes.map(
    (n) =>
      html`<li class="admin-report-note" data-id="${n.id}"><p class="admin-report-note-by">${tr.html(
        "admin.reports.note_by",
        {
          who: v.noteAuthors.get(n.accountId) ?? "?",
          when: when(n.createdAt),
        },
      )}</p><p class="admin-report-note-text">${n.content}</p>${
        n.accountId === v.myAccountId
          ? postButton(`${base}/notes/${n.id}/delete`, v.csrf, tr("admin.reports.note_delete"), "secondary")
          : ""
      }</li>`,
  );
  return html`<section class="admin-section" aria-labelledby="report-notes"><h2 id="report-notes">${tr("admin.reports.notes")}</h2>
${notes.length > 0 ? html`<ul class="admin-report-notes">${notes}</ul>` : html`<p class="muted">${tr("admin.reports.notes_none")}</p>`}
<form method="post" action="${base}/notes" class="admin-report-note-form"><input type="hidden" name="authenticity_token" value="${v.csrf}">
<label for="report-note">${tr("admin.reports.note_label")}</label>
<textarea id="report-note" name="content" rows="3" maxlength="500" required></textarea>
<button type="submit">${tr("admin.reports.note_add")}</button></form></section>`;
}

function actSection(tr: Translate, v: ShowInput, base: string): SafeHtml {
  if (!v.mayAct) return html``;
  const act = v.act ?? { type: "none", preset: "", text: "", email: true };
  const types = ACT_TYPES.filter((t) => t !== "disable" || v.targetLocal).map(
    (t) =>
      html`<label class="admin-report-act-type"><input type="radio" name="type" value="${t}"${t === act.type ? html` checked` : ""}> ${tr(`admin.reports.act.${t}` as MessageKey)}</label>`,
  );
  const opt = (value: string, label: string) =>
    html`<option value="${value}"${value === act.preset ? html` selected` : ""}>${label}</option>`;
  const presets = html`<select id="act-preset" name="preset">
${opt("", tr("admin.reports.act.preset_none"))}
${v.presets.length > 0 ? html`<optgroup label="${tr("admin.reports.act.presets_server")}">${v.presets.map((p) => opt(`server:${p.id}`, p.title || p.text.slice(0, 40)))}</optgroup>` : ""}
<optgroup label="${tr("admin.reports.act.presets_standard")}">${STANDARD_PRESETS.map((k) =>
    opt(`standard:${k}`, tr(`admin.reports.preset.${k}.title` as MessageKey)),
  )}</optgroup>
</select>`;
  return html`<section class="admin-section" aria-labelledby="report-act"><h2 id="report-act">${tr("admin.reports.act")}</h2>
<p class="muted">${tr("admin.reports.act.hint")}</p>
<form method="post" action="${base}/action" class="admin-report-act"><input type="hidden" name="authenticity_token" value="${v.csrf}">
<fieldset><legend>${tr("admin.reports.act.type")}</legend>${types}</fieldset>
<label for="act-preset">${tr("admin.reports.act.preset")}</label>
${presets}
<label for="act-text">${tr("admin.reports.act.text")}</label>
<textarea id="act-text" name="text" rows="4" maxlength="5000">${act.text}</textarea>
<label class="checkbox"><input type="checkbox" name="send_email_notification" value="1"${act.email ? html` checked` : ""}> ${tr("admin.reports.act.email")}</label>
<button type="submit">${tr("admin.reports.act.submit")}</button>
</form></section>`;
}

function warningsSection(tr: Translate, v: ShowInput): SafeHtml {
  if (v.warnings.length === 0) return html``;
  return html`<section class="admin-section" aria-labelledby="report-warnings"><h2 id="report-warnings">${tr("admin.reports.warnings")}</h2>
<ul class="admin-report-warnings">${v.warnings.map(
    (w) =>
      html`<li><strong>${tr(`admin.reports.warning.${w.action}` as MessageKey)}</strong> ${when(w.createdAt)}${w.text ? html`<p class="admin-report-warning-text">${w.text}</p>` : ""}</li>`,
  )}</ul></section>`;
}

function historySection(tr: Translate, v: ShowInput): SafeHtml {
  return html`<section class="admin-section" aria-labelledby="report-history"><h2 id="report-history">${tr("admin.reports.history")}</h2>
${
  v.history.length > 0
    ? html`<ol class="admin-report-history">${v.history.map(
        (e) =>
          html`<li data-action="${e.action}" data-target-type="${e.targetType}">${when(e.createdAt)} ${e.summary}</li>`,
      )}</ol>`
    : html`<p class="muted">${tr("admin.reports.history_none")}</p>`
}</section>`;
}
