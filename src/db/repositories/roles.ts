import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import { sql } from "kysely";
import { EVERYONE_ROLE_ID, Permission } from "../../lib/roles.ts";
import type { DB, UserRolesTable } from "../schema.ts";
import { selectShaped } from "./query-shapes.ts";

export interface Role {
  id: string;
  name: string;
  color: string;
  permissions: number;
  position: number;
  highlighted: boolean;
}

/** Defined in lib/roles.ts, which the command line loads without Kysely; re-exported for existing callers. */
export { EVERYONE_ROLE_ID, Permission };

export type RoleInsert = Insertable<UserRolesTable>;
export type RoleUpdate = Updateable<Omit<UserRolesTable, "id" | "created_at">>;

export function toRole(r: Selectable<UserRolesTable>): Role {
  return {
    id: String(r.id),
    name: r.name,
    color: r.color,
    permissions: Number(r.permissions),
    position: Number(r.position),
    highlighted: Boolean(r.highlighted),
  };
}

/** Whether a role (combined with the everyone role) grants `permission`. */
export function roleCan(role: Role, everyone: Role | undefined, permission: number): boolean {
  const bits = role.permissions | (everyone?.permissions ?? 0);
  return (bits & Permission.administrator) !== 0 || (bits & permission) === permission;
}

/** All SQL on `user_roles`. Roles change rarely; callers may cache `all()`. */
export class RolesRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async all(): Promise<Role[]> {
    const rows = await this.#db.selectFrom("user_roles").selectAll().orderBy("position").orderBy("id").execute();
    return rows.map(toRole);
  }

  async getById(id: string): Promise<Role | undefined> {
    const r = await this.#db.selectFrom("user_roles").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toRole(r);
  }

  /**
   * What a CredentialAccount reads besides its account and user rows, in one query (it is read
   * on every verify_credentials, and roles must not be taken from a cache that may be behind
   * another process): the role `roleId`, the everyone role, and how many follow requests
   * `accountId` has received.
   */
  async forCredentialAccount(
    roleId: string,
    accountId: string,
  ): Promise<{ role?: Role; everyone?: Role; followRequestsCount: number }> {
    const rows = await selectShaped(this.#db, "roles.forCredentialAccount", [accountId, roleId, EVERYONE_ROLE_ID], () =>
      this.#db
        .selectFrom("user_roles")
        .selectAll("user_roles")
        .select((eb) =>
          eb
            .selectFrom("follow_requests")
            .select((e) => e.fn.countAll().as("n"))
            .where("follow_requests.target_account_id", "=", accountId)
            .as("follow_requests_count"),
        )
        .where("user_roles.id", "in", [roleId, EVERYONE_ROLE_ID]),
    );
    const roles = rows.map(toRole);
    return {
      role: roles.find((r) => r.id === roleId),
      everyone: roles.find((r) => r.id === EVERYONE_ROLE_ID),
      followRequestsCount: Number(rows[0]?.follow_requests_count ?? 0),
    };
  }

  async getByName(name: string): Promise<Role | undefined> {
    const r = await this.#db
      .selectFrom("user_roles")
      .selectAll()
      // lower() on both sides: SQLite folds only ASCII, and must agree with the unique index.
      .where(sql<boolean>`lower(name) = lower(${name})`)
      .executeTakeFirst();
    return r && toRole(r);
  }

  async insert(row: RoleInsert, db: Kysely<DB> = this.#db): Promise<void> {
    await db.insertInto("user_roles").values(row).execute();
  }

  async update(id: string, patch: RoleUpdate, db: Kysely<DB> = this.#db): Promise<void> {
    await db.updateTable("user_roles").set(patch).where("id", "=", id).execute();
  }

  /**
   * Deletes a role and, in the same transaction, moves its users back to the everyone role (a
   * user's `role_id` must name a role); returns how many users were moved. `also` runs in that
   * transaction too (the action log entry).
   */
  async delete(id: string, updatedAt: string, also?: (trx: Kysely<DB>) => Promise<unknown>): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      await also?.(trx);
      const moved = await trx
        .updateTable("users")
        .set({ role_id: EVERYONE_ROLE_ID, updated_at: updatedAt })
        .where("role_id", "=", id)
        .executeTakeFirst();
      await trx.deleteFrom("user_roles").where("id", "=", id).execute();
      return Number(moved.numUpdatedRows);
    });
  }
}
