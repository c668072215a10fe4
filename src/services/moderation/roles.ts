import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { Role, RoleUpdate } from "../../db/repositories/roles.ts";
import type { DB } from "../../db/schema.ts";
import { ApiError, forbidden, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { EVERYONE_ROLE_ID, OWNER_ROLE_ID, Permission } from "../../lib/roles.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";
import {
  ALL_PERMISSIONS,
  isRoleColor,
  isRolePosition,
  type NewRole,
  type RoleChanges,
  type RoleOptions,
  roleNameProblem,
} from "../admin/roles.ts";
import { COMMAND_LINE, logAction, type Moderator } from "./action-log.ts";

/**
 * Creating, changing, deleting and assigning roles, for the admin API (a Gannet extension:
 * Mastodon has only a web page) and `gannet roles` / `gannet accounts modify --role`. Every change
 * is written to the action log in the same transaction.
 *
 * A staff member acts within their own role (Mastodon's UserRole#overrides? and its elevation
 * checks): they can neither create, change, delete nor hand out a role at or above their own
 * position, nor grant a permission they do not have themselves; of their own role they may change
 * only the name, color and badge (an administrator may also change its other permissions, never
 * its administrator bit). The command line is bound by none of this, only by the rules every role
 * follows (the everyone role keeps its name and place, the Owner role stays).
 */

/** Who changes roles, and within what bounds. */
export interface RoleActor {
  by: Moderator;
  /** The acting user's role; null for the command line. */
  role: Role | null;
  /** The permissions that role grants together with the everyone role's (every bit for an administrator). */
  permissions: number;
}

/** The operator at a shell. */
export const COMMAND_LINE_ROLES: RoleActor = Object.freeze({
  by: COMMAND_LINE,
  role: null,
  permissions: ALL_PERMISSIONS,
});

/** What a role grants, as Mastodon's computed_permissions: with everyone's, and everything for an administrator. */
export function effectivePermissions(role: Role, everyone: Role | undefined): number {
  if (role.id === EVERYONE_ROLE_ID) return role.permissions;
  const bits = role.permissions | (everyone?.permissions ?? 0);
  return (bits & Permission.administrator) !== 0 ? ALL_PERMISSIONS | bits : bits;
}

/** A staff member's bounds, read fresh from the database (not the role cache). */
export async function roleActorOf(ctx: AppContext, by: Moderator, roleId: string): Promise<RoleActor> {
  const role = await ctx.repos.roles.getById(roleId);
  const everyone = await ctx.repos.roles.getById(EVERYONE_ROLE_ID);
  if (!role) throw forbidden();
  return { by, role, permissions: effectivePermissions(role, everyone) };
}

const invalid = (message: string) => new ApiError(422, `Validation failed: ${message}`);

/** Whether the actor's role ranks strictly above `role` (the command line outranks every role). */
export function outranks(actor: RoleActor, role: Role): boolean {
  if (actor.by === COMMAND_LINE && actor.role === null) return true;
  if (actor.role === null) return false;
  // The everyone role is not ranked: every other role is above it.
  if (role.id === EVERYONE_ROLE_ID) return actor.role.id !== EVERYONE_ROLE_ID;
  return actor.role.position > role.position;
}

function checkAttributes(attrs: { name?: string; position?: number; color?: string; permissions?: number }): void {
  if (attrs.name !== undefined) {
    const problem = roleNameProblem(attrs.name);
    if (problem) throw invalid(`Name ${problem}`);
  }
  if (attrs.position !== undefined && !isRolePosition(attrs.position)) throw invalid("Position is out of range");
  if (attrs.color !== undefined && !isRoleColor(attrs.color)) throw invalid("Color is invalid");
}

/** A staff member may put a role only below their own, and grant only what they have. */
function checkElevation(actor: RoleActor, position: number | undefined, gained: number): void {
  if (actor.role === null) {
    if (actor.by === COMMAND_LINE) return;
    throw forbidden();
  }
  if (position !== undefined && position >= actor.role.position) {
    throw invalid("Position must be below the position of your own role");
  }
  if ((gained & ~actor.permissions) !== 0) {
    throw invalid("Permissions cannot include permissions your own role does not have");
  }
}

async function checkNameFree(ctx: AppContext, name: string, exceptId?: string): Promise<void> {
  const other = await ctx.repos.roles.getByName(name);
  if (other && other.id !== exceptId) throw invalid(`Name has already been taken (by the ${other.name} role)`);
}

function checkAdministrator(actor: RoleActor, before: number, after: number, opts: RoleOptions): void {
  const gains = (after & Permission.administrator) !== 0 && (before & Permission.administrator) === 0;
  // A staff member who holds administrator may grant it (the elevation check stops the others);
  // at a shell it must be asked for explicitly.
  if (gains && actor.role === null && !opts.allowAdministrator) {
    throw new ApiError(422, "Granting administrator (every permission) must be allowed explicitly");
  }
}

/** The role, or a 404. */
export async function findRole(ctx: AppContext, id: string): Promise<Role> {
  const role = isId(id) || id === EVERYONE_ROLE_ID ? await ctx.repos.roles.getById(id) : undefined;
  if (!role) throw notFound();
  return role;
}

/** Every role, lowest position first (the everyone role first of all). */
export function listRoles(ctx: AppContext): Promise<Role[]> {
  return ctx.repos.roles.all();
}

const roleRecord = (role: Role, summary: string) => ({
  targetType: "UserRole",
  targetId: role.id,
  humanIdentifier: role.name,
  summary,
});

/** Creates a role with a new id; a taken name (compared case-insensitively) is a 422. */
export async function createRole(
  ctx: AppContext,
  actor: RoleActor,
  input: NewRole,
  opts: RoleOptions = {},
): Promise<Role> {
  checkAttributes(input);
  const permissions = input.permissions ?? 0;
  const position = input.position ?? 0;
  checkElevation(actor, position, permissions);
  checkAdministrator(actor, 0, permissions, opts);
  await checkNameFree(ctx, input.name);
  const id = ctx.ids.next();
  const now = new Date().toISOString();
  const row = {
    id,
    name: input.name,
    color: input.color ?? "",
    permissions,
    position,
    highlighted: input.highlighted ?? false,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.roles.insert({ ...row, created_at: now, updated_at: now }, trx);
      await logAction(ctx, actor.by, { action: "create", ...roleRecord(row, `created the role ${row.name}`) }, trx);
    });
  } catch (e) {
    // Another process took the name in the meantime: the unique index said no.
    await checkNameFree(ctx, input.name);
    throw e;
  }
  ctx.roles.invalidate();
  return findRole(ctx, id);
}

/** The permission bits a change ends with. */
function permissionsAfter(role: Role, changes: RoleChanges): number {
  const permissions = changes.permissions ?? role.permissions;
  return (permissions | (changes.addPermissions ?? 0)) & ~(changes.removePermissions ?? 0);
}

/** Mastodon's own-role rule, as Gannet states it: see the module comment. */
function checkOwnRole(actor: RoleActor, role: Role, patch: RoleUpdate): void {
  if (actor.role?.id !== role.id) return;
  if (patch.position !== undefined) throw invalid("Position of your own role cannot be changed");
  if (patch.permissions === undefined) return;
  const isAdministrator = (actor.permissions & Permission.administrator) !== 0;
  const flipped = (Number(patch.permissions) ^ role.permissions) & Permission.administrator;
  if (!isAdministrator || flipped !== 0) throw invalid("Permissions of your own role cannot be changed");
}

/**
 * Changes a role in one update. The everyone role keeps its name and position (it is not ranked
 * among the others); its permissions, which every user has, may change (through the API only to
 * invite_users, as Mastodon's "dangerous permissions" rule).
 */
export async function modifyRole(
  ctx: AppContext,
  actor: RoleActor,
  role: Role,
  changes: RoleChanges,
  opts: RoleOptions = {},
): Promise<Role> {
  if (actor.role !== null && actor.role.id !== role.id && !outranks(actor, role)) throw forbidden();
  checkAttributes(changes);
  const patch: RoleUpdate = {};
  if (changes.name !== undefined && changes.name !== role.name) {
    if (role.id === EVERYONE_ROLE_ID) throw new ApiError(422, "The everyone role cannot be renamed");
    await checkNameFree(ctx, changes.name, role.id);
    patch.name = changes.name;
  }
  if (changes.position !== undefined && changes.position !== role.position) {
    if (role.id === EVERYONE_ROLE_ID) throw new ApiError(422, "The everyone role cannot be moved");
    patch.position = changes.position;
  }
  const permissions = permissionsAfter(role, changes);
  if (permissions !== role.permissions) {
    checkAdministrator(actor, role.permissions, permissions, opts);
    patch.permissions = permissions;
  }
  checkOwnRole(actor, role, patch);
  if (actor.role?.id !== role.id) {
    checkElevation(
      actor,
      patch.position === undefined ? undefined : Number(patch.position),
      permissions & ~role.permissions,
    );
  }
  if (
    actor.role !== null &&
    role.id === EVERYONE_ROLE_ID &&
    (permissions & ~role.permissions & ~Permission.inviteUsers) !== 0
  ) {
    throw invalid("Permissions of the everyone role may only include invite_users");
  }
  if (changes.color !== undefined && changes.color !== role.color) patch.color = changes.color;
  if (changes.highlighted !== undefined && changes.highlighted !== role.highlighted) {
    patch.highlighted = changes.highlighted;
  }
  if (Object.keys(patch).length === 0) return role;
  patch.updated_at = new Date().toISOString();
  const name = patch.name ?? role.name;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.repos.roles.update(role.id, patch, trx);
      await logAction(
        ctx,
        actor.by,
        { action: "update", ...roleRecord({ ...role, name }, `changed the role ${name}`) },
        trx,
      );
    });
  } catch (e) {
    if (patch.name !== undefined) await checkNameFree(ctx, patch.name, role.id);
    throw e;
  }
  ctx.roles.invalidate();
  return findRole(ctx, role.id);
}

/**
 * Deletes a role; its members go back to the everyone role in the same transaction. The everyone
 * and Owner roles stay; a staff member cannot delete their own role or one at or above it.
 * Returns how many users were moved.
 */
export async function deleteRole(ctx: AppContext, actor: RoleActor, role: Role): Promise<{ movedUsers: number }> {
  if (role.id === EVERYONE_ROLE_ID) throw new ApiError(422, "The everyone role cannot be deleted");
  if (actor.role !== null && (actor.role.id === role.id || !outranks(actor, role))) throw forbidden();
  if (role.id === OWNER_ROLE_ID) throw new ApiError(422, `The ${role.name} role cannot be deleted`);
  const movedUsers = await ctx.repos.roles.delete(role.id, new Date().toISOString(), (trx) =>
    logAction(ctx, actor.by, { action: "destroy", ...roleRecord(role, `deleted the role ${role.name}`) }, trx),
  );
  ctx.roles.invalidate();
  return { movedUsers };
}

/** A live local account by id and its user, or a 404. */
async function localUserById(ctx: AppContext, accountId: string) {
  const account = isId(accountId) ? await ctx.repos.accounts.getById(accountId) : undefined;
  if (!account || isAccountDeleted(account)) throw notFound();
  if (account.domain !== null) throw invalid("Role can only be given to local accounts");
  const user = await ctx.repos.users.getByAccountId(account.id);
  if (!user) throw notFound();
  return { account, user };
}

/**
 * Puts a local user in `role` (null: back in the everyone role), within the actor's bounds: the
 * user's current role and the new one must both rank below the actor's own (403 and 422). Writes
 * `change_role` on the `User`. `db`: the transaction of a larger change the entry belongs to.
 */
export async function changeUserRole(
  ctx: AppContext,
  actor: RoleActor,
  target: { account: Account; user: { id: string; roleId: string } },
  role: Role | null,
  db?: Kysely<DB>,
): Promise<void> {
  const current = await ctx.repos.roles.getById(target.user.roleId);
  if (actor.role !== null) {
    if (target.user.roleId === actor.role.id || (current && !outranks(actor, current))) throw forbidden();
    if (role !== null && !outranks(actor, role)) throw invalid("Role must be below your own role");
  }
  const roleId = role?.id ?? EVERYONE_ROLE_ID;
  if (roleId === target.user.roleId) return;
  const username = `@${target.account.username}`;
  const write = async (trx: Kysely<DB>) => {
    await ctx.repos.users.update(target.user.id, { role_id: roleId, updated_at: new Date().toISOString() }, trx);
    await logAction(
      ctx,
      actor.by,
      {
        action: "change_role",
        targetType: "User",
        targetId: target.user.id,
        humanIdentifier: username,
        summary: role === null ? `removed the role of ${username}` : `gave ${username} the role ${role.name}`,
      },
      trx,
    );
  };
  if (db) await write(db);
  else await ctx.db.transaction().execute(write);
}

/** `POST /api/v1/admin/accounts/:id/role`: `roleId` null or empty puts the user back in the everyone role. */
export async function assignRole(
  ctx: AppContext,
  actor: RoleActor,
  accountId: string,
  roleId: string | null,
): Promise<Account> {
  const target = await localUserById(ctx, accountId);
  let role: Role | null = null;
  if (roleId !== null && roleId !== "" && roleId !== EVERYONE_ROLE_ID) {
    role = (isId(roleId) ? await ctx.repos.roles.getById(roleId) : undefined) ?? null;
    if (!role) throw invalid("Role does not exist");
  }
  await changeUserRole(ctx, actor, target, role);
  return target.account;
}
