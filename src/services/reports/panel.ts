import type { AppContext } from "../../context.ts";
import type { Report, ReportFilter } from "../../db/repositories/reports.ts";
import { forbidden, notFound, unprocessable } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { type ActionLogEntry, logAction, type Moderator } from "../moderation/action-log.ts";
import type { AccountWarning } from "../moderation/warnings.ts";

/**
 * What the moderation panel's report pages need beyond the admin API's report service
 * (services/reports/admin.ts): the origin filter of the list, report notes (Mastodon's
 * ReportNote, migration 0052), the warning presets to choose from and a report's history from
 * the action log. Every change is written to the action log with the change.
 */

/** The longest note accepted (Mastodon's ReportNote limit). */
export const REPORT_NOTE_MAX = 500;

export interface ReportNote {
  id: string;
  reportId: string;
  /** The staff account that wrote it. */
  accountId: string;
  content: string;
  createdAt: string;
}

/** Whose reports the list shows: reports about local accounts, or about remote ones. */
export type ReportOrigin = "local" | "remote";

export interface PanelReportFilter extends ReportFilter {
  origin?: ReportOrigin;
}

/**
 * One page of reports for the panel, newest first: the admin API's filter (unresolved unless
 * `resolved` says otherwise, by reporter, by target) and the target account's origin.
 */
export async function listPanelReports(
  ctx: AppContext,
  filter: PanelReportFilter,
  window: IdWindow,
): Promise<Report[]> {
  if (filter.origin === undefined) return ctx.repos.reports.page(filter, window);
  let q = ctx.db
    .selectFrom("reports")
    .innerJoin("accounts", "accounts.id", "reports.target_account_id")
    .select("reports.id");
  q = filter.origin === "local" ? q.where("accounts.domain", "is", null) : q.where("accounts.domain", "is not", null);
  if (filter.resolved === true) q = q.where("reports.action_taken_at", "is not", null);
  if (filter.resolved === false) q = q.where("reports.action_taken_at", "is", null);
  if (filter.accountId !== undefined) q = q.where("reports.account_id", "=", filter.accountId);
  if (filter.targetAccountId !== undefined) q = q.where("reports.target_account_id", "=", filter.targetAccountId);
  if (window.maxId !== undefined) q = q.where("reports.id", "<", window.maxId);
  if (window.minId !== undefined) q = q.where("reports.id", ">", window.minId);
  if (window.sinceId !== undefined) q = q.where("reports.id", ">", window.sinceId);
  const asc = window.minId !== undefined && window.maxId === undefined;
  const rows = await q
    .orderBy("reports.id", asc ? "asc" : "desc")
    .limit(window.limit)
    .execute();
  const reports = await ctx.repos.reports.getByIds(rows.map((r) => String(r.id)));
  return reports.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
}

const toNote = (r: {
  id: string | number;
  report_id: string | number;
  account_id: string | number;
  content: string;
  created_at: string;
}): ReportNote => ({
  id: String(r.id),
  reportId: String(r.report_id),
  accountId: String(r.account_id),
  content: r.content,
  createdAt: r.created_at,
});

/** A report's notes, oldest first (as a conversation reads). */
export async function reportNotes(ctx: AppContext, reportId: string): Promise<ReportNote[]> {
  const rows = await ctx.db
    .selectFrom("report_notes")
    .selectAll()
    .where("report_id", "=", reportId)
    .orderBy("id", "asc")
    .limit(500)
    .execute();
  return rows.map(toNote);
}

/** The staff account's id (notes are written by staff with an account). */
function authorId(by: Moderator): string {
  if (by.accountId === null) throw forbidden();
  return by.accountId;
}

/** Adds a note to a report, and its `create ReportNote` entry in the action log, together. */
export async function addReportNote(
  ctx: AppContext,
  report: Report,
  content: string,
  by: Moderator,
): Promise<ReportNote> {
  const text = content.trim();
  if (text === "") throw unprocessable("Validation failed: Content can't be blank");
  if ([...text].length > REPORT_NOTE_MAX) {
    throw unprocessable(`Validation failed: Content is too long (maximum is ${REPORT_NOTE_MAX} characters)`);
  }
  const now = new Date().toISOString();
  const note: ReportNote = {
    id: ctx.ids.next(),
    reportId: report.id,
    accountId: authorId(by),
    content: text,
    createdAt: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("report_notes")
      .values({
        id: note.id,
        report_id: note.reportId,
        account_id: note.accountId,
        content: note.content,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await logAction(
      ctx,
      by,
      {
        action: "create",
        targetType: "ReportNote",
        targetId: note.id,
        humanIdentifier: `report #${report.id}`,
        summary: `added a note to report #${report.id}`,
      },
      trx,
    );
  });
  return note;
}

/**
 * Deletes a note of a report: only its author may (Mastodon's ReportNotePolicy lets staff who
 * may manage reports delete their own notes), with its `destroy ReportNote` log entry.
 */
export async function deleteReportNote(ctx: AppContext, report: Report, noteId: string, by: Moderator): Promise<void> {
  const row = isId(noteId)
    ? await ctx.db
        .selectFrom("report_notes")
        .selectAll()
        .where("id", "=", noteId)
        .where("report_id", "=", report.id)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound();
  if (String(row.account_id) !== authorId(by)) throw forbidden();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("report_notes").where("id", "=", noteId).execute();
    await logAction(
      ctx,
      by,
      {
        action: "destroy",
        targetType: "ReportNote",
        targetId: noteId,
        humanIdentifier: `report #${report.id}`,
        summary: `deleted a note of report #${report.id}`,
      },
      trx,
    );
  });
}

/** A warning preset (Mastodon's AccountWarningPreset), as the act form offers it. */
export interface WarningPresetChoice {
  id: string;
  title: string;
  text: string;
}

/** The server's warning presets (`account_warning_presets`), by title. */
export async function warningPresets(ctx: AppContext): Promise<WarningPresetChoice[]> {
  const rows = await ctx.db
    .selectFrom("account_warning_presets")
    .select(["id", "title", "text"])
    .orderBy("title")
    .orderBy("id")
    .limit(200)
    .execute();
  return rows.map((r) => ({ id: String(r.id), title: r.title, text: r.text }));
}

/** The strikes given with a report (the account actions taken on it). */
export async function reportWarnings(ctx: AppContext, report: Report): Promise<AccountWarning[]> {
  const warnings = await ctx.repos.accountWarnings.ofTarget(report.targetAccountId, 200);
  return warnings.filter((w) => w.reportId === report.id);
}

/**
 * A report's history, newest first: the action log's entries about the report itself (assigned,
 * resolved, reopened, changed), about its notes, and about the warnings given with it.
 */
export async function reportHistory(ctx: AppContext, report: Report): Promise<ActionLogEntry[]> {
  const warningIds = (await reportWarnings(ctx, report)).map((w) => w.id);
  const rows = await ctx.db
    .selectFrom("admin_action_logs")
    .selectAll()
    .where((eb) => {
      const anyOf = [
        eb.and([eb("target_type", "=", "Report"), eb("target_id", "=", report.id)]),
        eb.and([eb("target_type", "=", "ReportNote"), eb("human_identifier", "=", `report #${report.id}`)]),
      ];
      if (warningIds.length > 0) {
        anyOf.push(eb.and([eb("target_type", "=", "AccountWarning"), eb("target_id", "in", warningIds)]));
      }
      return eb.or(anyOf);
    })
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    accountId: r.account_id === null ? null : String(r.account_id),
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    humanIdentifier: r.human_identifier,
    summary: r.summary,
    createdAt: r.created_at,
  }));
}

/** How the panel names the authors of notes: account id → `@alice` (`@bob@remote` for remote ones). */
export async function noteAuthors(ctx: AppContext, notes: readonly ReportNote[]): Promise<Map<string, string>> {
  const accounts = await ctx.repos.accounts.getByIds([...new Set(notes.map((n) => n.accountId))]);
  return new Map(accounts.map((a) => [a.id, a.domain === null ? `@${a.username}` : `@${a.username}@${a.domain}`]));
}
