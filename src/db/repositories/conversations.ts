import { type Kysely, type Selectable, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { AccountConversationsTable, DB } from "../schema.ts";
import { applyWindow, idWindowOrder } from "./id-window.ts";

/** One account's view of a direct-message conversation (Mastodon's AccountConversation). */
export interface AccountConversation {
  id: string;
  accountId: string;
  conversationId: string;
  /** The other participants (empty for a note to oneself). */
  participantAccountIds: string[];
  lastStatusId: string;
  unread: boolean;
}

function toConversation(r: Selectable<AccountConversationsTable>): AccountConversation {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    conversationId: String(r.conversation_id),
    participantAccountIds: r.participant_account_ids === "" ? [] : r.participant_account_ids.split(","),
    lastStatusId: String(r.last_status_id),
    unread: Boolean(r.unread),
  };
}

/** The stored form of a participant set: numerically sorted, comma-joined. */
export function participantsKey(ids: readonly string[]): string {
  return [...new Set(ids)].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)).join(",");
}

export interface AddToConversation {
  newId: string;
  accountId: string;
  conversationId: string;
  participants: string;
  statusId: string;
  unread: boolean;
  at: string;
}

/** All SQL on `account_conversations` and `account_conversation_statuses`. */
export class ConversationsRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * Adds a status to an account's conversation, creating it when needed: `last_status_id`
   * becomes the newest status it holds and, when this status is that one, `unread` is set as given. A status already added
   * changes nothing (the fan-out job may run twice).
   */
  /** Answers the account conversation's id when the status was added to it (not when it already was). */
  async addStatus(a: AddToConversation): Promise<string | undefined> {
    return await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto("account_conversations")
        .values({
          id: a.newId,
          account_id: a.accountId,
          conversation_id: a.conversationId,
          participant_account_ids: a.participants,
          last_status_id: a.statusId,
          unread: a.unread,
          created_at: a.at,
          updated_at: a.at,
        })
        .onConflict((oc) => oc.columns(["account_id", "conversation_id", "participant_account_ids"]).doNothing())
        .execute();
      const row = await trx
        .selectFrom("account_conversations")
        .select("id")
        .where("account_id", "=", a.accountId)
        .where("conversation_id", "=", a.conversationId)
        .where("participant_account_ids", "=", a.participants)
        .executeTakeFirstOrThrow();
      const added = await trx
        .insertInto("account_conversation_statuses")
        .values({ account_conversation_id: row.id, status_id: a.statusId })
        .onConflict((oc) => oc.columns(["account_conversation_id", "status_id"]).doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
      await trx
        .updateTable("account_conversations")
        // Against the row as it is when locked: a concurrent job's newer status is kept as the
        // last one, and only the newest status decides `unread`.
        .set({
          unread: sql`CASE WHEN last_status_id > ${a.statusId} THEN unread ELSE ${a.unread} END`,
          last_status_id: sql`CASE WHEN last_status_id > ${a.statusId} THEN last_status_id ELSE ${a.statusId} END`,
          updated_at: a.at,
        })
        .where("id", "=", row.id)
        .execute();
      return String(row.id);
    });
  }

  /**
   * Takes a deleted status out of every conversation holding it: each moves back to the status
   * before, and a conversation left empty is removed (Mastodon). Runs in the caller's transaction.
   */
  async removeStatus(statusId: string, db: Kysely<DB> = this.#db): Promise<void> {
    const holders = await db
      .selectFrom("account_conversation_statuses")
      .select("account_conversation_id")
      .where("status_id", "=", statusId)
      .execute();
    if (holders.length === 0) return;
    const ids = holders.map((h) => String(h.account_conversation_id));
    await db.deleteFrom("account_conversation_statuses").where("status_id", "=", statusId).execute();
    await db
      .deleteFrom("account_conversations")
      .where("id", "in", ids)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("account_conversation_statuses as s")
              .select("s.status_id")
              .whereRef("s.account_conversation_id", "=", "account_conversations.id"),
          ),
        ),
      )
      .execute();
    await db
      .updateTable("account_conversations")
      .set({
        last_status_id: sql`(SELECT MAX(s.status_id) FROM account_conversation_statuses s
          WHERE s.account_conversation_id = account_conversations.id)`,
      })
      .where("id", "in", ids)
      .execute();
  }

  /** One page of an account's conversations, by last status, newest first. */
  async page(accountId: string, window: IdWindow): Promise<AccountConversation[]> {
    let q = this.#db.selectFrom("account_conversations").selectAll().where("account_id", "=", accountId);
    q = applyWindow(q, "last_status_id", window);
    const rows = await q
      .orderBy("last_status_id", idWindowOrder(window))
      .orderBy("id", idWindowOrder(window))
      .limit(window.limit)
      .execute();
    const out = rows.map(toConversation);
    return idWindowOrder(window) === "asc" ? out.reverse() : out;
  }

  async get(accountId: string, id: string): Promise<AccountConversation | undefined> {
    const r = await this.#db
      .selectFrom("account_conversations")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .executeTakeFirst();
    return r && toConversation(r);
  }

  async setUnread(accountId: string, id: string, unread: boolean, at: string): Promise<void> {
    await this.#db
      .updateTable("account_conversations")
      .set({ unread, updated_at: at })
      .where("account_id", "=", accountId)
      .where("id", "=", id)
      .execute();
  }

  /**
   * Removes the account's conversations that `participantId` takes part in (a block, as
   * Mastodon's AfterBlockService `clear_conversations!`). Runs in the caller's transaction.
   */
  async deleteWithParticipant(accountId: string, participantId: string, db: Kysely<DB> = this.#db): Promise<void> {
    const hit = sql<boolean>`(',' || participant_account_ids || ',') LIKE ${`%,${participantId},%`}`;
    await db
      .deleteFrom("account_conversation_statuses")
      .where("account_conversation_id", "in", (eb) =>
        eb.selectFrom("account_conversations").select("id").where("account_id", "=", accountId).where(hit),
      )
      .execute();
    await db.deleteFrom("account_conversations").where("account_id", "=", accountId).where(hit).execute();
  }

  /** Removes an account's conversation and the record of its statuses; false when there was none. */
  async delete(accountId: string, id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const r = await trx
        .deleteFrom("account_conversations")
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await trx.deleteFrom("account_conversation_statuses").where("account_conversation_id", "=", id).execute();
      return true;
    });
  }
}
