import type { Kysely, Selectable } from "kysely";
import type { AccountWarningsTable, DB } from "../schema.ts";

/** Mastodon's AccountWarning `action` values. */
export const WARNING_ACTIONS = [
  "none",
  "disable",
  "mark_statuses_as_sensitive",
  "delete_statuses",
  "sensitive",
  "silence",
  "suspend",
] as const;

export type WarningAction = (typeof WARNING_ACTIONS)[number];

/** A strike against an account (Mastodon's AccountWarning), the record of a moderation action. */
export interface AccountWarning {
  id: string;
  /** The moderator's account; null for the `gannet` command. */
  accountId: string | null;
  targetAccountId: string;
  action: WarningAction;
  text: string;
  statusIds: string[];
  reportId: string | null;
  overruledAt: string | null;
  createdAt: string;
}

/** A canned warning text (Mastodon's AccountWarningPreset). */
export interface WarningPreset {
  id: string;
  title: string;
  text: string;
}

function toWarning(r: Selectable<AccountWarningsTable>): AccountWarning {
  let statusIds: string[] = [];
  try {
    const v: unknown = JSON.parse(r.status_ids);
    if (Array.isArray(v)) statusIds = v.map(String);
  } catch {
    // A malformed list counts as none.
  }
  return {
    id: String(r.id),
    accountId: r.account_id === null ? null : String(r.account_id),
    targetAccountId: String(r.target_account_id),
    action: (WARNING_ACTIONS as readonly string[]).includes(r.action) ? (r.action as WarningAction) : "none",
    text: r.text,
    statusIds,
    reportId: r.report_id === null ? null : String(r.report_id),
    overruledAt: r.overruled_at,
    createdAt: r.created_at,
  };
}

/** All SQL on `account_warnings` and `account_warning_presets` (migration 0034). */
export class AccountWarningsRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(w: AccountWarning, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("account_warnings")
      .values({
        id: w.id,
        account_id: w.accountId,
        target_account_id: w.targetAccountId,
        action: w.action,
        text: w.text,
        status_ids: JSON.stringify(w.statusIds),
        report_id: w.reportId,
        overruled_at: w.overruledAt,
        created_at: w.createdAt,
        updated_at: w.createdAt,
      })
      .execute();
  }

  async getById(id: string): Promise<AccountWarning | undefined> {
    const r = await this.#db.selectFrom("account_warnings").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toWarning(r);
  }

  async getByIds(ids: readonly string[]): Promise<AccountWarning[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.selectFrom("account_warnings").selectAll().where("id", "in", ids).execute();
    return rows.map(toWarning);
  }

  /** The strikes against an account, newest first. */
  async ofTarget(targetAccountId: string, limit = 100): Promise<AccountWarning[]> {
    const rows = await this.#db
      .selectFrom("account_warnings")
      .selectAll()
      .where("target_account_id", "=", targetAccountId)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map(toWarning);
  }

  async getPreset(id: string): Promise<WarningPreset | undefined> {
    const r = await this.#db
      .selectFrom("account_warning_presets")
      .select(["id", "title", "text"])
      .where("id", "=", id)
      .executeTakeFirst();
    return r && { id: String(r.id), title: r.title, text: r.text };
  }

  async insertPreset(p: WarningPreset, at: string): Promise<void> {
    await this.#db
      .insertInto("account_warning_presets")
      .values({ id: p.id, title: p.title, text: p.text, created_at: at, updated_at: at })
      .execute();
  }
}
