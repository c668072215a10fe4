import type { Kysely, Selectable } from "kysely";
import { sql } from "kysely";
import type { DB, UserRolesTable } from "../schema.ts";

export interface Role {
  id: string;
  name: string;
  color: string;
  permissions: number;
  position: number;
  highlighted: boolean;
}

export const EVERYONE_ROLE_ID = "-99";

/** Mastodon's role permission bits. */
export const Permission = {
  administrator: 0x1,
  devops: 0x2,
  viewAuditLog: 0x4,
  viewDashboard: 0x8,
  manageReports: 0x10,
  manageFederation: 0x20,
  manageSettings: 0x40,
  manageBlocks: 0x80,
  manageTaxonomies: 0x100,
  manageAppeals: 0x200,
  manageUsers: 0x400,
  manageInvites: 0x800,
  manageRules: 0x1000,
  manageAnnouncements: 0x2000,
  manageCustomEmojis: 0x4000,
  manageWebhooks: 0x8000,
  inviteUsers: 0x10000,
  manageRoles: 0x20000,
  manageUserAccess: 0x40000,
  deleteUserData: 0x80000,
  viewFeeds: 0x100000,
} as const;

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
    const rows = await this.#db.selectFrom("user_roles").selectAll().orderBy("position").execute();
    return rows.map(toRole);
  }

  async getById(id: string): Promise<Role | undefined> {
    const r = await this.#db.selectFrom("user_roles").selectAll().where("id", "=", id).executeTakeFirst();
    return r && toRole(r);
  }

  async getByName(name: string): Promise<Role | undefined> {
    const r = await this.#db
      .selectFrom("user_roles")
      .selectAll()
      .where(sql<string>`lower(name)`, "=", name.toLowerCase())
      .executeTakeFirst();
    return r && toRole(r);
  }
}
