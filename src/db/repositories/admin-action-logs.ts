import type { Kysely } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** One moderation action, as recorded (Mastodon's Admin::ActionLog). */
export interface ActionLogEntry {
  id: string;
  /** Who acted; null for the `gannet` command. */
  accountId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  humanIdentifier: string | null;
  summary: string;
  createdAt: string;
}

export interface ActionLogFilter {
  accountId?: string;
  targetType?: string;
  targetId?: string;
}

/** All SQL on `admin_action_logs` (migration 0034). Rows are inserted, never updated or deleted. */
export class AdminActionLogsRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(entry: ActionLogEntry, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("admin_action_logs")
      .values({
        id: entry.id,
        account_id: entry.accountId,
        action: entry.action,
        target_type: entry.targetType,
        target_id: entry.targetId,
        human_identifier: entry.humanIdentifier,
        summary: entry.summary,
        created_at: entry.createdAt,
      })
      .execute();
  }

  /** One page, newest first. */
  async page(filter: ActionLogFilter, window: IdWindow): Promise<ActionLogEntry[]> {
    let q = this.#db.selectFrom("admin_action_logs").selectAll();
    if (filter.accountId !== undefined) q = q.where("account_id", "=", filter.accountId);
    if (filter.targetType !== undefined) q = q.where("target_type", "=", filter.targetType);
    if (filter.targetId !== undefined) q = q.where("target_id", "=", filter.targetId);
    q = applyWindow(q, "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(
      rows.map((r) => ({
        id: String(r.id),
        accountId: r.account_id === null ? null : String(r.account_id),
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        humanIdentifier: r.human_identifier,
        summary: r.summary,
        createdAt: r.created_at,
      })),
    );
  }
}
