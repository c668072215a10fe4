import type { Context, Hono } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import {
  ACCOUNT_ACTION_TYPES,
  type AccountActionType,
  acctOf,
  findAccountByAcct,
  findActionTarget,
  performAccountAction,
} from "../../../../services/moderation/account-actions.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as admin from "../../../../services/reports/admin.ts";
import { adminReportsJson } from "../../../../services/reports/admin-views.ts";
import {
  addReportNote,
  deleteReportNote,
  listPanelReports,
  noteAuthors,
  type ReportOrigin,
  reportHistory,
  reportNotes,
  reportWarnings,
  warningPresets,
} from "../../../../services/reports/panel.ts";
import type { Report } from "../../../../services/reports/types.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked, field } from "../../guard.ts";
import { type MessageKey, t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { errorPage } from "../../pages/notices.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { adminNotFound, noticeFrom, redirectWithNotice, sendAdminPage } from "../layout.ts";
import { filterForm, reportBody, reportTable, type ShowInput, STANDARD_PRESETS } from "./view.ts";

/** Reports per page of the list. */
const PAGE_SIZE = 40;

const notFoundPage = adminNotFound;

/** The report named in the path, or undefined (a 404 page). */
async function reportOf(c: Context<HonoEnv>): Promise<Report | undefined> {
  try {
    return await admin.findReport(c.env.ctx, c.req.param("id") ?? "");
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

/** A refused action's text: the service's 403 and 404 in the panel's words, else its message. */
function refusal(c: Context<HonoEnv>, e: ApiError): string {
  const tr = t(c);
  if (e.status === 403) return tr("admin.reports.error.forbidden");
  if (e.status === 404) return tr("admin.reports.error.not_found");
  return e.message;
}

/** One report's page (with an error and the act form's values after a refused action). */
async function showReport(
  c: Context<HonoEnv>,
  me: Staff,
  report: Report,
  extra: { error?: string; status?: number; act?: ShowInput["act"] } = {},
): Promise<Response> {
  const ctx = c.env.ctx;
  const tr = t(c);
  const [json] = await adminReportsJson(ctx, [report], me.account.id);
  if (json === undefined) return notFoundPage(c);
  const notes = await reportNotes(ctx, report.id);
  const mayAct = await me.can(Permission.manageUsers);
  const body = reportBody(tr, {
    report: json,
    csrf: me.csrf,
    myAccountId: me.account.id,
    targetLocal: (json.target_account as { domain: string | null }).domain === null,
    notes,
    noteAuthors: await noteAuthors(ctx, notes),
    warnings: await reportWarnings(ctx, report),
    history: await reportHistory(ctx, report),
    presets: mayAct ? await warningPresets(ctx) : [],
    mayAct,
    act: extra.act,
  });
  return sendAdminPage(c, me, {
    title: tr("admin.reports.report_n", { id: report.id }),
    body,
    current: "/admin/reports",
    notice: extra.error ? undefined : noticeFrom(c),
    error: extra.error,
    status: extra.status,
  });
}

/** After a change: back to the report, with the change's notice. */
const backTo = (c: Context<HonoEnv>, report: Report, notice: string) =>
  redirectWithNotice(c, `/admin/reports/${report.id}`, `admin.reports.notice.${notice}`);

/**
 * A POST on one report: the staff form (role and CSRF), the report, then `act`; a refusal from
 * the service (403, 404, 422) shows the report again with the reason.
 */
function reportAction(
  app: Hono<HonoEnv>,
  path: string,
  act: (c: Context<HonoEnv>, me: Staff, report: Report, params: Record<string, unknown>) => Promise<Response>,
  permission: number = Permission.manageReports,
): void {
  app.post(`/admin/reports/:id${path}`, async (c) => {
    const form = await staffForm(c, Permission.manageReports);
    if (form instanceof Response) return form;
    if (permission !== Permission.manageReports && !(await form.me.can(permission))) {
      const tr = t(c);
      return errorPage(c, 403, tr("admin.forbidden"), tr("admin.forbidden_text"));
    }
    const report = await reportOf(c);
    if (!report) return notFoundPage(c);
    try {
      return await act(c, form.me, report, form.params);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
      const fresh = (await reportOf(c)) ?? report;
      return showReport(c, form.me, fresh, { error: refusal(c, e), status: e.status === 404 ? 404 : e.status });
    }
  });
}

/** The moderation panel's reports pages (docs/web-admin-reports.md). */
export function adminReportPages(app: Hono<HonoEnv>): void {
  app.get("/admin/reports", async (c) => {
    const me = await requireStaff(c, Permission.manageReports);
    if (me instanceof Response) return me;
    const ctx = c.env.ctx;
    const tr = t(c);
    const q = c.req.query();
    const resolved = q.resolved === "1" || q.resolved === "true";
    const origin: ReportOrigin | undefined = q.origin === "local" || q.origin === "remote" ? q.origin : undefined;
    const targetText = (q.target ?? "").trim().slice(0, 300);
    let targetAccountId: string | undefined;
    let about: string | undefined;
    let unknownTarget = false;
    if (targetText !== "") {
      const account = await findAccountByAcct(ctx, targetText);
      if (account) {
        targetAccountId = account.id;
        about = acctOf(account);
      } else unknownTarget = true;
    } else if (q.target_account_id) {
      targetAccountId = isId(q.target_account_id) ? q.target_account_id : "0";
      const account = isId(q.target_account_id)
        ? await findActionTarget(ctx, q.target_account_id).catch(() => undefined)
        : undefined;
      about = account ? acctOf(account) : undefined;
    }
    const window = {
      maxId: q.max_id && isId(q.max_id) ? q.max_id : undefined,
      minId: q.min_id && isId(q.min_id) ? q.min_id : undefined,
      limit: PAGE_SIZE,
    };
    const rows = unknownTarget
      ? []
      : await listPanelReports(
          ctx,
          {
            resolved,
            origin,
            targetAccountId,
            accountId: q.account_id && isId(q.account_id) ? q.account_id : undefined,
          },
          window,
        );
    const json = await adminReportsJson(ctx, rows, me.account.id);
    const keep = new URLSearchParams();
    if (resolved) keep.set("resolved", "1");
    if (origin) keep.set("origin", origin);
    if (targetText) keep.set("target", targetText);
    else if (targetAccountId) keep.set("target_account_id", targetAccountId);
    const link = (cursor: string, id: string) => {
      const p = new URLSearchParams(keep);
      p.set(cursor, id);
      return `/admin/reports?${p}`;
    };
    const paging =
      rows.length > 0
        ? html`<nav class="admin-actions admin-reports-paging" aria-label="${tr("admin.reports.title")}">
${window.maxId || window.minId ? html`<a href="${link("min_id", rows[0].id)}" rel="prev">${tr("admin.newer")}</a>` : ""}
${rows.length === PAGE_SIZE ? html`<a href="${link("max_id", rows[rows.length - 1].id)}" rel="next">${tr("admin.older")}</a>` : ""}
</nav>`
        : "";
    const body = html`<h1>${tr("admin.reports.title")}</h1>
<p class="muted">${tr("admin.reports.intro")}</p>
${filterForm(tr, { resolved, origin: origin ?? "", target: targetText })}
${unknownTarget ? html`<p class="error" role="alert">${tr("admin.reports.filter.unknown_target", { acct: targetText })}</p>` : ""}
${about ? html`<p class="admin-reports-about">${tr("admin.reports.filter.about", { acct: about })}</p>` : ""}
${reportTable(tr, json)}
${paging}`;
    return sendAdminPage(c, me, {
      title: tr("admin.reports.title"),
      body,
      current: "/admin/reports",
      notice: noticeFrom(c),
    });
  });

  app.get("/admin/reports/:id", async (c) => {
    const me = await requireStaff(c, Permission.manageReports);
    if (me instanceof Response) return me;
    const report = await reportOf(c);
    if (!report) return notFoundPage(c);
    return showReport(c, me, report);
  });

  const by = (me: Staff) => moderatorOf(me.account);

  reportAction(app, "/assign_to_self", async (c, me, report) => {
    await admin.assignToSelf(c.env.ctx, report, by(me));
    return backTo(c, report, "assigned");
  });
  reportAction(app, "/unassign", async (c, me, report) => {
    await admin.unassign(c.env.ctx, report, by(me));
    return backTo(c, report, "unassigned");
  });
  reportAction(app, "/resolve", async (c, me, report) => {
    await admin.resolve(c.env.ctx, report, by(me));
    return backTo(c, report, "resolved");
  });
  reportAction(app, "/reopen", async (c, me, report) => {
    await admin.reopen(c.env.ctx, report, by(me));
    return backTo(c, report, "reopened");
  });
  reportAction(app, "/notes", async (c, me, report, params) => {
    await addReportNote(c.env.ctx, report, field(params, "content", 2000), by(me));
    return backTo(c, report, "note_added");
  });
  reportAction(app, "/notes/:note_id/delete", async (c, me, report) => {
    await deleteReportNote(c.env.ctx, report, c.req.param("note_id") ?? "", by(me));
    return backTo(c, report, "note_deleted");
  });

  // Acting on the account: the admin API's `POST /api/v1/admin/accounts/:id/action` with the
  // report (Manage Users, as that endpoint), which resolves the report.
  reportAction(
    app,
    "/action",
    async (c, me, report, params) => {
      const tr = t(c);
      const type = field(params, "type", 20);
      const preset = field(params, "preset", 60);
      const text = field(params, "text", 5000);
      const email = checked(params, "send_email_notification");
      let warningPresetId: string | undefined;
      let presetText = "";
      if (preset.startsWith("server:")) warningPresetId = preset.slice("server:".length);
      else if (preset.startsWith("standard:")) {
        const key = preset.slice("standard:".length);
        if ((STANDARD_PRESETS as readonly string[]).includes(key)) {
          presetText = tr(`admin.reports.preset.${key}.text` as MessageKey);
        }
      }
      if (!(ACCOUNT_ACTION_TYPES as readonly string[]).includes(type)) {
        return showReport(c, me, report, {
          error: tr("admin.reports.error.type"),
          status: 422,
          act: { type: "none", preset, text, email },
        });
      }
      try {
        const target = await findActionTarget(c.env.ctx, report.targetAccountId);
        await performAccountAction(c.env.ctx, by(me), target, {
          type: type as AccountActionType,
          text: [presetText, text.trim()].filter((x) => x !== "").join("\n\n"),
          reportId: report.id,
          warningPresetId,
          sendEmailNotification: email,
        });
      } catch (e) {
        if (!(e instanceof ApiError) || e.status >= 500) throw e;
        return showReport(c, me, report, {
          error: refusal(c, e),
          status: e.status,
          act: { type, preset, text, email },
        });
      }
      return backTo(c, report, "acted");
    },
    Permission.manageUsers,
  );
}
