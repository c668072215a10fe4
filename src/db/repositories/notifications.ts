import { type Insertable, type Kysely, type Selectable, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
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
  /** Held back by the recipient's notification policy. */
  filtered: boolean;
  createdAt: string;
}

export interface NotificationFilter {
  types?: readonly string[];
  excludeTypes?: readonly string[];
  fromAccountId?: string;
  /** Also those the recipient's notification policy filtered (`include_filtered`). */
  includeFiltered?: boolean;
}

/** What a group holds up to a page's newest notification (Mastodon's group data). */
export interface GroupData {
  mostRecentId: string;
  latestAt: string;
  count: number;
  /** The senders of its newest notifications, newest first (at most `SAMPLE_ACCOUNTS`). */
  sampleAccountIds: string[];
  /** Its oldest notification within the page (when a page range was given). */
  pageMinId?: string;
}

/** Sample accounts per group (Mastodon's `SAMPLE_ACCOUNTS_SIZE`). */
export const SAMPLE_ACCOUNTS = 8;

/** The group a notification counts in: its `group_key` when its type is grouped, else its own. */
export function effectiveGroupKey(n: Notification, groupedTypes: readonly string[]): string {
  return groupedTypes.includes(n.type) ? n.groupKey : `ungrouped-${n.id}`;
}

/** The condition selecting a group's members: `ungrouped-<id>` names one notification (Mastodon's `by_group_key`). */
function groupCondition(groupKey: string): { column: "id" | "group_key"; value: string } | undefined {
  if (!groupKey.startsWith("ungrouped-")) return { column: "group_key", value: groupKey };
  const id = groupKey.slice("ungrouped-".length);
  return /^[0-9]{1,19}$/.test(id) ? { column: "id", value: id } : undefined;
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
    filtered: Boolean(r.filtered),
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
  /** Stores a notification unless one for the same cause exists; answers whether it was stored. */
  async insert(row: Insertable<NotificationsTable>): Promise<boolean> {
    const r = await this.#db
      .insertInto("notifications")
      .values(row)
      .onConflict((oc) => oc.columns(["account_id", "type", "activity_id"]).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  #matching(accountId: string, filter: NotificationFilter) {
    let q = this.#db.selectFrom("notifications").where("account_id", "=", accountId);
    if (filter.types !== undefined && filter.types.length > 0) q = q.where("type", "in", filter.types);
    if (filter.excludeTypes !== undefined && filter.excludeTypes.length > 0) {
      q = q.where("type", "not in", filter.excludeTypes);
    }
    if (filter.fromAccountId !== undefined) q = q.where("from_account_id", "=", filter.fromAccountId);
    // Filtered notifications are in their requests only, unless asked for (Mastodon's `include_filtered`).
    if (filter.includeFiltered !== true) q = q.where("filtered", "=", false);
    // Blocks and mutes (with notifications) hide what the account caused, also when newer than it.
    q = q.where(notificationSenderAllowed(new Date().toISOString()));
    return q;
  }

  /** One page of an account's notifications, newest first. */
  async page(accountId: string, filter: NotificationFilter, window: IdWindow): Promise<Notification[]> {
    const q = applyWindow(this.#matching(accountId, filter).selectAll(), "id", window);
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toNotification));
  }

  /**
   * When the first of the account's mutes and filters still in force runs out (ms since the
   * epoch), or Infinity: what its pages show may change then without any write.
   */
  async nextExpiry(accountId: string, nowIso: string): Promise<number> {
    const [mutes, filters] = await Promise.all([
      this.#db
        .selectFrom("mutes")
        .select((eb) => eb.fn.min("expires_at").as("at"))
        .where("account_id", "=", accountId)
        .where("expires_at", ">", nowIso)
        .executeTakeFirst(),
      this.#db
        .selectFrom("filters")
        .select((eb) => eb.fn.min("expires_at").as("at"))
        .where("account_id", "=", accountId)
        .where("expires_at", ">", nowIso)
        .executeTakeFirst(),
    ]);
    const ms = (v: unknown) => (v === null || v === undefined ? Infinity : new Date(v as string).getTime());
    return Math.min(ms(mutes?.at), ms(filters?.at));
  }

  /** How many notifications newer than `afterId` there are, counting at most `limit`. */
  async countAfter(
    accountId: string,
    afterId: string | undefined,
    filter: NotificationFilter,
    limit: number,
  ): Promise<number> {
    let q = this.#matching(accountId, filter).select("id");
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

  /** The local accounts whose users hold one of these roles (who to tell about a sign-up). */
  async localAccountIdsWithRoles(roleIds: readonly string[]): Promise<string[]> {
    if (roleIds.length === 0) return [];
    const rows = await this.#db
      .selectFrom("users")
      .innerJoin("accounts", "accounts.id", "users.account_id")
      .select("accounts.id")
      .where("users.role_id", "in", roleIds)
      .where("accounts.domain", "is", null)
      .orderBy("accounts.id")
      .execute();
    return rows.map((r) => String(r.id));
  }

  /**
   * One page of groups (Mastodon's `paginate_groups`): walking the window newest first (oldest
   * first with `min_id` alone), the first notification met of each group, until `limit` groups.
   * Types not in `groupedTypes` are groups of one. Each query skips the groups already met, so
   * a large group costs no more than a small one. Newest first.
   */
  async groupedPage(
    accountId: string,
    filter: NotificationFilter,
    window: IdWindow,
    groupedTypes: readonly string[],
  ): Promise<Notification[]> {
    const order = idWindowOrder(window);
    const picked: Notification[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    while (picked.length < window.limit) {
      let q = applyWindow(this.#matching(accountId, filter).selectAll(), "id", window);
      if (cursor !== undefined) q = q.where("id", order === "desc" ? "<" : ">", cursor);
      if (seen.size > 0) {
        const keys = [...seen];
        q = q.where((eb) => eb.not(eb.and([eb("type", "in", groupedTypes), eb("group_key", "in", keys)])));
      }
      const need = window.limit - picked.length;
      const rows = (await q.orderBy("id", order).limit(need).execute()).map(toNotification);
      for (const n of rows) {
        if (picked.length >= window.limit) break;
        if (groupedTypes.includes(n.type)) {
          if (seen.has(n.groupKey)) continue;
          seen.add(n.groupKey);
        }
        picked.push(n);
      }
      if (rows.length < need) break;
      cursor = rows.at(-1)?.id;
    }
    return sortDesc(picked);
  }

  /**
   * Mastodon's group data for these keys: count, newest notification and sample senders among
   * the notifications up to `range.maxId`, and with a range the oldest one from `range.minId`.
   */
  async groupsData(
    accountId: string,
    groupKeys: readonly string[],
    range?: { minId: string; maxId: string },
  ): Promise<Map<string, GroupData>> {
    const out = new Map<string, GroupData>();
    if (groupKeys.length === 0) return out;
    const keys = sql.join(groupKeys.map((k) => sql`${k}`));
    const upTo = range ? sql`AND id <= ${range.maxId}` : sql``;
    // Counts and samples leave out blocked and muted senders, as the pages do.
    const allowed = notificationSenderAllowed(new Date().toISOString());
    const r = await sql<{
      group_key: string;
      from_account_id: string;
      id: string;
      created_at: string;
      rn: number;
      n: number;
    }>`
      SELECT group_key, from_account_id, id, created_at, rn, n FROM (
        SELECT group_key, from_account_id, id, created_at,
          ROW_NUMBER() OVER (PARTITION BY group_key ORDER BY id DESC) AS rn,
          COUNT(*) OVER (PARTITION BY group_key) AS n
        FROM notifications
        WHERE account_id = ${accountId} AND group_key IN (${keys}) ${upTo} AND ${allowed}
      ) t WHERE rn <= ${SAMPLE_ACCOUNTS} ORDER BY group_key, rn`.execute(this.#db);
    for (const row of r.rows) {
      const key = row.group_key;
      const g = out.get(key);
      if (g === undefined) {
        out.set(key, {
          mostRecentId: String(row.id),
          latestAt: row.created_at,
          count: Number(row.n),
          sampleAccountIds: [String(row.from_account_id)],
        });
      } else g.sampleAccountIds.push(String(row.from_account_id));
    }
    if (range) {
      const mins = await this.#db
        .selectFrom("notifications")
        .select(["group_key", (eb) => eb.fn.min("id").as("min_id")])
        .where("account_id", "=", accountId)
        .where("group_key", "in", groupKeys)
        .where("id", ">=", range.minId)
        .where(allowed)
        .groupBy("group_key")
        .execute();
      for (const m of mins) {
        const g = out.get(m.group_key);
        if (g) g.pageMinId = String(m.min_id);
      }
    }
    return out;
  }

  /** The newest notification of a group (`ungrouped-<id>` names one notification). */
  async latestOfGroup(accountId: string, groupKey: string): Promise<Notification | undefined> {
    const cond = groupCondition(groupKey);
    if (!cond) return undefined;
    const r = await this.#db
      .selectFrom("notifications")
      .selectAll()
      .where("account_id", "=", accountId)
      .where(cond.column, "=", cond.value)
      .where(notificationSenderAllowed(new Date().toISOString()))
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return r && toNotification(r);
  }

  /** One page of a group's notifications (their senders are the group's accounts), newest first. */
  async groupPage(accountId: string, groupKey: string, window: IdWindow): Promise<Notification[]> {
    const cond = groupCondition(groupKey);
    if (!cond) return [];
    const q = applyWindow(
      this.#db
        .selectFrom("notifications")
        .selectAll()
        .where("account_id", "=", accountId)
        .where(cond.column, "=", cond.value)
        .where(notificationSenderAllowed(new Date().toISOString())),
      "id",
      window,
    );
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toNotification));
  }

  /** Deletes every notification of a group. */
  async dismissGroup(accountId: string, groupKey: string): Promise<void> {
    const cond = groupCondition(groupKey);
    if (!cond) return;
    await this.#db
      .deleteFrom("notifications")
      .where("account_id", "=", accountId)
      .where(cond.column, "=", cond.value)
      .execute();
  }

  /** The key of the newest of `accountId`'s notifications made since `sinceIso` among `groupKeys`. */
  async latestGroupKeyAmong(
    accountId: string,
    groupKeys: readonly string[],
    sinceIso: string,
  ): Promise<string | undefined> {
    if (groupKeys.length === 0) return undefined;
    const r = await this.#db
      .selectFrom("notifications")
      .select("group_key")
      .where("account_id", "=", accountId)
      .where("group_key", "in", groupKeys)
      .where("created_at", ">=", sinceIso)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return r?.group_key;
  }
}
