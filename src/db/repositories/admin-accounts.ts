import { type Kysely, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DB } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** Mastodon's AccountFilter statuses. */
export type AdminAccountStatus = "active" | "pending" | "disabled" | "silenced" | "suspended" | "sensitized";

/** What the admin account listings filter on (Mastodon's AccountFilter, already translated). */
export interface AdminAccountFilter {
  origin?: "local" | "remote";
  status?: AdminAccountStatus;
  /** Users holding one of these roles (local accounts only). */
  roleIds?: readonly string[];
  /** Case-insensitive prefix of the username. */
  username?: string;
  /** Case-insensitive prefix of the display name. */
  displayName?: string;
  /** Exactly this domain. */
  byDomain?: string;
  /** Case-insensitive prefix of the user's e-mail address. */
  email?: string;
  /** Users who used one of these addresses (already matched against the range). */
  ipUserIds?: readonly string[];
  /** Matches nothing (a filter that names nobody, such as an inviter: Gannet has no invites). */
  nothing?: boolean;
}

/** One address a user signed up or signed in from, and when it was last used. */
export interface UserIp {
  ip: string;
  usedAt: string;
}

export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const prefix = (s: string) => `${escapeLike(s.toLowerCase())}%`;

/** All SQL of the admin account listings and of `user_ips` (migration 0034). */
export class AdminAccountsRepository {
  readonly #db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /** Ids of one page of accounts matching the filter, newest first. */
  async pageIds(f: AdminAccountFilter, window: IdWindow): Promise<string[]> {
    if (f.nothing || (f.ipUserIds !== undefined && f.ipUserIds.length === 0) || f.roleIds?.length === 0) return [];
    let q = this.#db
      .selectFrom("accounts")
      .leftJoin("users", "users.account_id", "accounts.id")
      .select("accounts.id")
      // A remote account its server deleted is gone for moderators, as Mastodon destroys it.
      .where((eb) =>
        eb.or([
          eb("accounts.domain", "is", null),
          eb("accounts.suspension_origin", "is", null),
          eb("accounts.suspension_origin", "!=", "deleted"),
        ]),
      );
    if (f.origin === "local") q = q.where("accounts.domain", "is", null);
    if (f.origin === "remote") q = q.where("accounts.domain", "is not", null);
    switch (f.status) {
      case "active":
        q = q.where("accounts.suspended_at", "is", null);
        break;
      case "pending":
        q = q.where("users.approved", "=", false);
        break;
      case "disabled":
        q = q.where("users.disabled", "=", true).where("accounts.suspended_at", "is", null);
        break;
      case "silenced":
        q = q.where("accounts.silenced_at", "is not", null);
        break;
      case "suspended":
        q = q.where("accounts.suspended_at", "is not", null);
        break;
      case "sensitized":
        q = q.where("accounts.sensitized_at", "is not", null);
        break;
    }
    if (f.roleIds !== undefined) q = q.where("users.role_id", "in", [...f.roleIds]);
    if (f.username !== undefined) {
      q = q.where(sql<boolean>`lower(accounts.username) LIKE ${prefix(f.username)} ESCAPE '\\'`);
    }
    if (f.displayName !== undefined) {
      q = q.where(sql<boolean>`lower(accounts.display_name) LIKE ${prefix(f.displayName)} ESCAPE '\\'`);
    }
    if (f.byDomain !== undefined) q = q.where(sql<boolean>`lower(accounts.domain) = ${f.byDomain.toLowerCase()}`);
    if (f.email !== undefined) q = q.where(sql<boolean>`lower(users.email) LIKE ${prefix(f.email)} ESCAPE '\\'`);
    if (f.ipUserIds !== undefined) q = q.where("users.id", "in", [...f.ipUserIds]);
    q = applyWindow(q, "accounts.id", window);
    const rows = await q.orderBy("accounts.id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map((r) => ({ id: String(r.id) }))).map((r) => r.id);
  }

  /** Every distinct address in `user_ips` (to match a range against). */
  async distinctIps(): Promise<string[]> {
    const rows = await this.#db.selectFrom("user_ips").select("ip").distinct().execute();
    return rows.map((r) => r.ip);
  }

  /** Users who used one of these addresses. */
  async userIdsWithIps(ips: readonly string[]): Promise<string[]> {
    if (ips.length === 0) return [];
    const out = new Set<string>();
    for (let i = 0; i < ips.length; i += 500) {
      const rows = await this.#db
        .selectFrom("user_ips")
        .select("user_id")
        .distinct()
        .where("ip", "in", ips.slice(i, i + 500))
        .execute();
      for (const r of rows) out.add(String(r.user_id));
    }
    return [...out];
  }

  /** The addresses of each user, most recently used first. */
  async ipsOf(userIds: readonly string[]): Promise<Map<string, UserIp[]>> {
    const out = new Map<string, UserIp[]>();
    if (userIds.length === 0) return out;
    const rows = await this.#db
      .selectFrom("user_ips")
      .selectAll()
      .where("user_id", "in", [...userIds])
      .orderBy("used_at", "desc")
      .orderBy("ip")
      .execute();
    for (const r of rows) {
      const id = String(r.user_id);
      const list = out.get(id) ?? [];
      list.push({ ip: r.ip, usedAt: r.used_at });
      out.set(id, list);
    }
    return out;
  }

  /** Notes that the user used this address now (one row per user and address). */
  async recordIp(userId: string, ip: string, at: string, db: Kysely<DB> = this.#db): Promise<void> {
    await db
      .insertInto("user_ips")
      .values({ user_id: userId, ip, used_at: at })
      .onConflict((oc) => oc.columns(["user_id", "ip"]).doUpdateSet({ used_at: at }))
      .execute();
  }

  /**
   * Removes a rejected sign-up for good: its user (grants and tokens cascade) and its account row
   * with what may refer to it without a foreign key, so that the name can be taken again.
   */
  async deleteRejected(accountId: string, userId: string, db: Kysely<DB>): Promise<void> {
    await db
      .deleteFrom("notifications")
      .where((eb) => eb.or([eb("account_id", "=", accountId), eb("from_account_id", "=", accountId)]))
      .execute();
    await db.deleteFrom("scheduled_statuses").where("account_id", "=", accountId).execute();
    await db.deleteFrom("media_attachments").where("account_id", "=", accountId).execute();
    await db.deleteFrom("statuses").where("account_id", "=", accountId).execute();
    await db.deleteFrom("users").where("id", "=", userId).execute();
    await db.deleteFrom("accounts").where("id", "=", accountId).execute();
  }
}
