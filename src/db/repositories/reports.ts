import type { Kysely, Selectable, Updateable } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import { REPORT_CATEGORIES, type ReportCategory } from "../../lib/reports.ts";
import type { DB, ReportsTable } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** Defined in lib/reports.ts (the API validates with it too); re-exported for existing callers. */
export { REPORT_CATEGORIES, type ReportCategory };

export interface Report {
  id: string;
  accountId: string;
  targetAccountId: string;
  statusIds: string[];
  comment: string;
  category: ReportCategory;
  /** null when the report names no rule. */
  ruleIds: string[] | null;
  forwarded: boolean;
  actionTakenAt: string | null;
  actionTakenByAccountId: string | null;
  assignedAccountId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewReport {
  id: string;
  accountId: string;
  targetAccountId: string;
  statusIds: readonly string[];
  comment: string;
  category: ReportCategory;
  ruleIds: readonly string[] | null;
  forwarded: boolean;
  at: string;
}

export interface ReportFilter {
  /** true: resolved only; false: unresolved only; undefined: both. */
  resolved?: boolean;
  accountId?: string;
  targetAccountId?: string;
}

const idList = (json: string | null): string[] | null => {
  if (json === null) return null;
  const v: unknown = JSON.parse(json);
  return Array.isArray(v) ? v.map(String) : [];
};

function toReport(r: Selectable<ReportsTable>): Report {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    targetAccountId: String(r.target_account_id),
    statusIds: idList(r.status_ids) ?? [],
    comment: r.comment,
    category: (REPORT_CATEGORIES as readonly string[]).includes(r.category) ? (r.category as ReportCategory) : "other",
    ruleIds: idList(r.rule_ids),
    forwarded: Boolean(r.forwarded),
    actionTakenAt: r.action_taken_at,
    actionTakenByAccountId: r.action_taken_by_account_id === null ? null : String(r.action_taken_by_account_id),
    assignedAccountId: r.assigned_account_id === null ? null : String(r.assigned_account_id),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type ReportPatch = Partial<{
  category: ReportCategory;
  ruleIds: readonly string[] | null;
  actionTakenAt: string | null;
  actionTakenByAccountId: string | null;
  assignedAccountId: string | null;
}>;

/** All SQL on `reports`. */
export class ReportsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(r: NewReport, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("reports")
      .values({
        id: r.id,
        account_id: r.accountId,
        target_account_id: r.targetAccountId,
        status_ids: JSON.stringify(r.statusIds),
        comment: r.comment,
        category: r.category,
        rule_ids: r.ruleIds === null ? null : JSON.stringify(r.ruleIds),
        forwarded: r.forwarded,
        created_at: r.at,
        updated_at: r.at,
      })
      .execute();
  }

  async getById(id: string): Promise<Report | undefined> {
    const r = await this.#db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toReport(r);
  }

  async getByIds(ids: readonly string[]): Promise<Report[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.selectFrom("reports").selectAll().where("id", "in", ids).execute();
    return rows.map(toReport);
  }

  /**
   * Whether an older unresolved report about the same account exists (Mastodon's
   * `unresolved_siblings?`, limited to older ones so that two reports filed at once do not
   * silence each other).
   */
  async hasOlderUnresolvedSiblings(report: Report): Promise<boolean> {
    const r = await this.#db
      .selectFrom("reports")
      .select("id")
      .where("target_account_id", "=", report.targetAccountId)
      .where("id", "<", report.id)
      .where("action_taken_at", "is", null)
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** One page of reports, newest first. */
  async page(filter: ReportFilter, window: IdWindow): Promise<Report[]> {
    let q = this.#db.selectFrom("reports").selectAll();
    if (filter.resolved === true) q = q.where("action_taken_at", "is not", null);
    if (filter.resolved === false) q = q.where("action_taken_at", "is", null);
    if (filter.accountId !== undefined) q = q.where("account_id", "=", filter.accountId);
    if (filter.targetAccountId !== undefined) q = q.where("target_account_id", "=", filter.targetAccountId);
    q = applyWindow(q, "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toReport));
  }

  async update(id: string, patch: ReportPatch, at: string, db: Kysely<DB> = this.#db): Promise<void> {
    const set: Updateable<ReportsTable> = { updated_at: at };
    if (patch.category !== undefined) set.category = patch.category;
    if (patch.ruleIds !== undefined) set.rule_ids = patch.ruleIds === null ? null : JSON.stringify(patch.ruleIds);
    if (patch.actionTakenAt !== undefined) set.action_taken_at = patch.actionTakenAt;
    if (patch.actionTakenByAccountId !== undefined) set.action_taken_by_account_id = patch.actionTakenByAccountId;
    if (patch.assignedAccountId !== undefined) set.assigned_account_id = patch.assignedAccountId;
    await db.updateTable("reports").set(set).where("id", "=", id).execute();
  }
}
