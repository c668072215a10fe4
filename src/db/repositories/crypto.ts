import { type Kysely, type Selectable, sql } from "kysely";
import type { IdWindow } from "../../lib/pagination.ts";
import type { DialectName } from "../database.ts";
import type { DB, DevicesTable, EncryptedMessagesTable } from "../schema.ts";
import { applyWindow, idWindowOrder, sortDesc } from "./id-window.ts";

/** A device: one access token's end-to-end encryption identity. */
export interface Device {
  /** The row (`devices.id`). */
  id: string;
  accessTokenId: string;
  accountId: string;
  /** The client's own id for it. */
  deviceId: string;
  name: string;
  fingerprintKey: string;
  identityKey: string;
}

export interface DeviceKeys {
  deviceId: string;
  name: string;
  fingerprintKey: string;
  identityKey: string;
}

export interface OneTimeKey {
  keyId: string;
  key: string;
  signature: string;
}

export interface EncryptedMessage {
  id: string;
  /** The recipient's device row. */
  deviceRowId: string;
  fromAccountId: string;
  fromDeviceId: string;
  type: number;
  body: string;
  digest: string;
  messageFranking: string;
  createdAt: string;
}

export type NewEncryptedMessage = Omit<EncryptedMessage, "createdAt">;

const toDevice = (r: Selectable<DevicesTable>): Device => ({
  id: String(r.id),
  accessTokenId: String(r.access_token_id),
  accountId: String(r.account_id),
  deviceId: r.device_id,
  name: r.name,
  fingerprintKey: r.fingerprint_key,
  identityKey: r.identity_key,
});

const toMessage = (r: Selectable<EncryptedMessagesTable>): EncryptedMessage => ({
  id: String(r.id),
  deviceRowId: String(r.device_id),
  fromAccountId: String(r.from_account_id),
  fromDeviceId: r.from_device_id,
  type: Number(r.type),
  body: r.body,
  digest: r.digest,
  messageFranking: r.message_franking,
  createdAt: r.created_at,
});

/** All SQL on `devices`, `one_time_keys` and `encrypted_messages` (migration 0044). */
export class CryptoRepository {
  readonly #db: Kysely<DB>;
  readonly #dialect: DialectName;
  constructor(db: Kysely<DB>, dialect: DialectName) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async deviceOfToken(accessTokenId: string, db: Kysely<DB> = this.#db): Promise<Device | undefined> {
    const r = await db
      .selectFrom("devices")
      .selectAll()
      .where("access_token_id", "=", accessTokenId)
      .executeTakeFirst();
    return r && toDevice(r);
  }

  /**
   * The devices that can be written to: their token is not revoked and their account not
   * suspended (a revoked token's device stays until the token row goes, as on Mastodon, but
   * nobody can reach it).
   */
  #live(db: Kysely<DB>) {
    return db
      .selectFrom("devices as d")
      .innerJoin("oauth_access_tokens as t", "t.id", "d.access_token_id")
      .innerJoin("accounts as a", "a.id", "d.account_id")
      .selectAll("d")
      .where("t.revoked_at", "is", null)
      .where("a.suspended_at", "is", null);
  }

  /** The live devices of these accounts, oldest first. */
  async liveDevicesOf(accountIds: readonly string[]): Promise<Device[]> {
    if (accountIds.length === 0) return [];
    const rows = await this.#live(this.#db).where("d.account_id", "in", accountIds).orderBy("d.id").execute();
    return rows.map(toDevice);
  }

  async liveDevice(accountId: string, deviceId: string, db: Kysely<DB> = this.#db): Promise<Device | undefined> {
    const r = await this.#live(db)
      .where("d.account_id", "=", accountId)
      .where("d.device_id", "=", deviceId)
      .executeTakeFirst();
    return r && toDevice(r);
  }

  /**
   * Makes the token's device `keys`, in the caller's transaction. A device of the same account
   * under the same id but another token (the app signed in again) is replaced; when the device
   * id or a key changes, the one-time keys and messages made for the old identity go (Mastodon's
   * `invalidate_associations`).
   */
  async saveDevice(
    row: { id: string; accessTokenId: string; accountId: string; keys: DeviceKeys; at: string },
    db: Kysely<DB>,
  ): Promise<Device> {
    const { keys } = row;
    await db
      .deleteFrom("devices")
      .where("account_id", "=", row.accountId)
      .where("device_id", "=", keys.deviceId)
      .where("access_token_id", "!=", row.accessTokenId)
      .execute();
    const existing = await this.deviceOfToken(row.accessTokenId, db);
    const values = {
      account_id: row.accountId,
      device_id: keys.deviceId,
      name: keys.name,
      fingerprint_key: keys.fingerprintKey,
      identity_key: keys.identityKey,
      updated_at: row.at,
    };
    if (!existing) {
      await db
        .insertInto("devices")
        .values({ id: row.id, access_token_id: row.accessTokenId, created_at: row.at, ...values })
        .execute();
      return { id: row.id, accessTokenId: row.accessTokenId, accountId: row.accountId, ...keys };
    }
    const changed =
      existing.deviceId !== keys.deviceId ||
      existing.fingerprintKey !== keys.fingerprintKey ||
      existing.identityKey !== keys.identityKey;
    if (changed) {
      await db.deleteFrom("one_time_keys").where("device_id", "=", existing.id).execute();
      await db.deleteFrom("encrypted_messages").where("device_id", "=", existing.id).execute();
    }
    await db.updateTable("devices").set(values).where("id", "=", existing.id).execute();
    return { ...existing, accountId: row.accountId, ...keys };
  }

  /** Adds one-time keys to a device; a key id it already has keeps its first key. */
  async addOneTimeKeys(
    deviceRowId: string,
    keys: readonly (OneTimeKey & { id: string })[],
    at: string,
    db: Kysely<DB>,
  ): Promise<void> {
    if (keys.length === 0) return;
    await db
      .insertInto("one_time_keys")
      .values(
        keys.map((k) => ({
          id: k.id,
          device_id: deviceRowId,
          key_id: k.keyId,
          key: k.key,
          signature: k.signature,
          created_at: at,
          updated_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(["device_id", "key_id"]).doNothing())
      .execute();
  }

  async countOneTimeKeys(deviceRowId: string, db: Kysely<DB> = this.#db): Promise<number> {
    const r = await db
      .selectFrom("one_time_keys")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("device_id", "=", deviceRowId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /**
   * Takes one of the device's one-time keys, at random as Mastodon does, and deletes it in the same
   * statement, so that no two claims get the same key: on PostgreSQL the row is locked and
   * concurrent claims skip it for another; SQLite runs one statement at a time.
   */
  async claimOneTimeKey(deviceRowId: string): Promise<OneTimeKey | undefined> {
    let pick = this.#db
      .selectFrom("one_time_keys")
      .select("id")
      .where("device_id", "=", deviceRowId)
      .orderBy(sql`random()`)
      .limit(1);
    if (this.#dialect === "postgres") pick = pick.forUpdate().skipLocked();
    const r = await this.#db
      .deleteFrom("one_time_keys")
      .where("id", "=", pick)
      .returning(["key_id", "key", "signature"])
      .executeTakeFirst();
    return r && { keyId: r.key_id, key: r.key, signature: r.signature };
  }

  async insertMessages(rows: readonly NewEncryptedMessage[], at: string, db: Kysely<DB> = this.#db): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto("encrypted_messages")
      .values(
        rows.map((m) => ({
          id: m.id,
          device_id: m.deviceRowId,
          from_account_id: m.fromAccountId,
          from_device_id: m.fromDeviceId,
          type: m.type,
          body: m.body,
          digest: m.digest,
          message_franking: m.messageFranking,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }

  /** One page of a device's messages, newest first. */
  async messagesPage(deviceRowId: string, window: IdWindow): Promise<EncryptedMessage[]> {
    const q = applyWindow(
      this.#db.selectFrom("encrypted_messages").selectAll().where("device_id", "=", deviceRowId),
      "id",
      window,
    );
    const rows = await q.orderBy("id", idWindowOrder(window)).limit(window.limit).execute();
    return sortDesc(rows.map(toMessage));
  }

  async message(deviceRowId: string, id: string): Promise<EncryptedMessage | undefined> {
    const r = await this.#db
      .selectFrom("encrypted_messages")
      .selectAll()
      .where("device_id", "=", deviceRowId)
      .where("id", "=", id)
      .executeTakeFirst();
    return r && toMessage(r);
  }

  /** Deletes the device's messages up to `upToId` (inclusive); answers how many went. */
  async clearMessages(deviceRowId: string, upToId: string): Promise<number> {
    const r = await this.#db
      .deleteFrom("encrypted_messages")
      .where("device_id", "=", deviceRowId)
      .where("id", "<=", upToId)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
