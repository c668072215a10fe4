import type { Kysely, Selectable } from "kysely";
import type { DB, WebPushSubscriptionsTable } from "../schema.ts";

export type PushPolicy = "all" | "followed" | "follower" | "none";

export interface PushSubscription {
  id: string;
  accessTokenId: string;
  accountId: string;
  endpoint: string;
  keyP256dh: string;
  keyAuth: string;
  standard: boolean;
  /** The notification types pushed. */
  alerts: string[];
  policy: PushPolicy;
  tokenBox: string;
}

/** A subscription to store, with when it is made. */
export interface NewPushSubscription extends PushSubscription {
  at: string;
}

function parseAlerts(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function toSubscription(r: Selectable<WebPushSubscriptionsTable>): PushSubscription {
  return {
    id: String(r.id),
    accessTokenId: String(r.access_token_id),
    accountId: String(r.account_id),
    endpoint: r.endpoint,
    keyP256dh: r.key_p256dh,
    keyAuth: r.key_auth,
    standard: Boolean(r.standard),
    alerts: parseAlerts(r.alerts),
    policy: r.policy as PushPolicy,
    tokenBox: r.token_box,
  };
}

/** All SQL on `web_push_subscriptions`. */
export class PushSubscriptionsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async forToken(accessTokenId: string): Promise<PushSubscription | undefined> {
    const r = await this.#db
      .selectFrom("web_push_subscriptions")
      .selectAll()
      .where("access_token_id", "=", accessTokenId)
      .executeTakeFirst();
    return r ? toSubscription(r) : undefined;
  }

  async getById(id: string): Promise<PushSubscription | undefined> {
    const r = await this.#db.selectFrom("web_push_subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? toSubscription(r) : undefined;
  }

  /** An account's subscriptions whose access token still works (a revoked token's never push). */
  async activeForAccount(accountId: string): Promise<PushSubscription[]> {
    const rows = await this.#db
      .selectFrom("web_push_subscriptions as s")
      .innerJoin("oauth_access_tokens as t", "t.id", "s.access_token_id")
      .selectAll("s")
      .where("s.account_id", "=", accountId)
      .where("t.revoked_at", "is", null)
      .orderBy("s.id")
      .execute();
    return rows.map(toSubscription);
  }

  /** The token's subscription becomes this one (Mastodon: one per token, a new id each time). */
  async replace(row: NewPushSubscription, db: Kysely<DB> = this.#db): Promise<void> {
    await db.deleteFrom("web_push_subscriptions").where("access_token_id", "=", row.accessTokenId).execute();
    await db
      .insertInto("web_push_subscriptions")
      .values({
        id: row.id,
        access_token_id: row.accessTokenId,
        account_id: row.accountId,
        endpoint: row.endpoint,
        key_p256dh: row.keyP256dh,
        key_auth: row.keyAuth,
        standard: row.standard,
        alerts: JSON.stringify(row.alerts),
        policy: row.policy,
        token_box: row.tokenBox,
        created_at: row.at,
        updated_at: row.at,
      })
      .execute();
  }

  /** Changes what the token's subscription pushes; false when it has none. */
  async updateData(accessTokenId: string, alerts: string[], policy: PushPolicy, at: string): Promise<boolean> {
    const r = await this.#db
      .updateTable("web_push_subscriptions")
      .set({ alerts: JSON.stringify(alerts), policy, updated_at: at })
      .where("access_token_id", "=", accessTokenId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async deleteForToken(accessTokenId: string): Promise<void> {
    await this.#db.deleteFrom("web_push_subscriptions").where("access_token_id", "=", accessTokenId).execute();
  }

  /** Drops a subscription the push service says is gone (404/410). */
  async deleteById(id: string, endpoint: string): Promise<void> {
    // Only if it still points where the push failed: the client may have re-subscribed meanwhile.
    await this.#db.deleteFrom("web_push_subscriptions").where("id", "=", id).where("endpoint", "=", endpoint).execute();
  }
}
