import type { Kysely, Selectable } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB, ScheduledStatusesTable } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

export interface ScheduledStatus {
  id: string;
  accountId: string;
  scheduledAt: string;
  params: Record<string, unknown>;
  createdAt: string;
}

function parseParams(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export function toScheduledStatus(r: Selectable<ScheduledStatusesTable>): ScheduledStatus {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    scheduledAt: r.scheduled_at,
    params: parseParams(r.params),
    createdAt: r.created_at,
  };
}

/** All SQL on `scheduled_statuses`. */
export class ScheduledStatusesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(
    row: { id: string; account_id: string; scheduled_at: string; params: Record<string, unknown>; created_at: string },
    db: Kysely<DB> = this.#db,
  ): Promise<void> {
    await db
      .insertInto("scheduled_statuses")
      .values({ ...row, params: JSON.stringify(row.params) })
      .execute();
  }

  async getById(id: string, db: Kysely<DB> = this.#db): Promise<ScheduledStatus | undefined> {
    const r = await db.selectFrom("scheduled_statuses").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toScheduledStatus(r);
  }

  /** One scheduled status, only when `accountId` owns it. */
  async getOwned(id: string, accountId: string, db: Kysely<DB> = this.#db): Promise<ScheduledStatus | undefined> {
    const r = await db
      .selectFrom("scheduled_statuses")
      .selectAll()
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r && toScheduledStatus(r);
  }

  /** A page of an account's scheduled statuses by id, newest first. */
  async page(accountId: string, window: IdWindow): Promise<ScheduledStatus[]> {
    const q = applyWindow(
      this.#db.selectFrom("scheduled_statuses").selectAll().where("account_id", "=", accountId),
      "id",
      window,
    );
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toScheduledStatus));
  }

  /** How many the account has waiting; with `from`/`to`, only those due in [from, to). */
  async count(accountId: string, range?: { from: string; to: string }, db: Kysely<DB> = this.#db): Promise<number> {
    let q = db
      .selectFrom("scheduled_statuses")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("account_id", "=", accountId);
    if (range) q = q.where("scheduled_at", ">=", range.from).where("scheduled_at", "<", range.to);
    const r = await q.executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async setScheduledAt(id: string, scheduledAt: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("scheduled_statuses").set({ scheduled_at: scheduledAt }).where("id", "=", id).execute();
  }

  /** Deletes one; false when it was already gone (another worker published or someone cancelled it). */
  async delete(id: string, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db.deleteFrom("scheduled_statuses").where("id", "=", id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** The ids of those due at `beforeIso` or earlier, oldest due first. */
  async dueIds(beforeIso: string, limit: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("scheduled_statuses")
      .select("id")
      .where("scheduled_at", "<=", beforeIso)
      .orderBy("scheduled_at")
      .limit(limit)
      .execute();
    return rows.map((r) => String(r.id));
  }
}
