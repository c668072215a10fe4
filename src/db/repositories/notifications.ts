import type { Insertable, Kysely, Selectable } from "kysely";
import type { IdWindow } from "../../http/pagination.ts";
import type { DB, NotificationsTable } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";
import { notificationSenderAllowed } from "./relationships.ts";

export interface Notification {
  id: string;
  accountId: string;
  fromAccountId: string;
  type: string;
  statusId: string | null;
  activityId: string;
  groupKey: string;
  createdAt: string;
}

export interface NotificationFilter {
  types?: readonly string[];
  excludeTypes?: readonly string[];
  fromAccountId?: string;
}

function toNotification(r: Selectable<NotificationsTable>): Notification {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    fromAccountId: String(r.from_account_id),
    type: r.type,
    statusId: r.status_id === null ? null : String(r.status_id),
    activityId: String(r.activity_id),
    groupKey: r.group_key,
    createdAt: r.created_at,
  };
}

/** All SQL on `notifications`. */
export class NotificationsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Stores a notification; nothing happens when the same cause already notified the account. */
  async insert(row: Insertable<NotificationsTable>): Promise<void> {
    await this.#db
      .insertInto("notifications")
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "type", "activity_id"]).doNothing())
      .execute();
  }

  #filtered(accountId: string, filter: NotificationFilter) {
    let q = this.#db.selectFrom("notifications").where("account_id", "=", accountId);
    if (filter.types !== undefined && filter.types.length > 0) q = q.where("type", "in", filter.types);
    if (filter.excludeTypes !== undefined && filter.excludeTypes.length > 0) {
      q = q.where("type", "not in", filter.excludeTypes);
    }
    if (filter.fromAccountId !== undefined) q = q.where("from_account_id", "=", filter.fromAccountId);
    // Blocks and mutes (with notifications) hide what the account caused, also when newer than it.
    q = q.where(notificationSenderAllowed(new Date().toISOString()));
    return q;
  }

  /** One page of an account's notifications, newest first. */
  async page(accountId: string, filter: NotificationFilter, window: IdWindow): Promise<Notification[]> {
    const q = applyWindow(this.#filtered(accountId, filter).selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toNotification));
  }

  /** How many notifications newer than `afterId` there are, counting at most `limit`. */
  async countAfter(
    accountId: string,
    afterId: string | undefined,
    filter: NotificationFilter,
    limit: number,
  ): Promise<number> {
    let q = this.#filtered(accountId, filter).select("id");
    if (afterId !== undefined) q = q.where("id", ">", afterId);
    const rows = await q.orderBy("id", "desc").limit(limit).execute();
    return rows.length;
  }

  async get(accountId: string, id: string): Promise<Notification | undefined> {
    const r = await this.#db
      .selectFrom("notifications")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .executeTakeFirst();
    return r && toNotification(r);
  }

  async clear(accountId: string): Promise<void> {
    await this.#db.deleteFrom("notifications").where("account_id", "=", accountId).execute();
  }

  async dismiss(accountId: string, id: string): Promise<boolean> {
    const r = await this.#db
      .deleteFrom("notifications")
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Removes the notifications about, or caused by, these statuses (deleted posts and boosts). */
  async deleteForStatuses(statusIds: readonly string[], db: Kysely<DB> = this.#db): Promise<void> {
    if (statusIds.length === 0) return;
    await db
      .deleteFrom("notifications")
      .where((eb) => eb.or([eb("status_id", "in", statusIds), eb("activity_id", "in", statusIds)]))
      .execute();
  }

  /** Removes what `fromAccountId`'s `type` on a status notified (an undone favourite). */
  async deleteFrom(type: string, fromAccountId: string, statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .deleteFrom("notifications")
      .where("type", "=", type)
      .where("from_account_id", "=", fromAccountId)
      .where("status_id", "=", statusId)
      .execute();
  }
}
