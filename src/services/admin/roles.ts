import type { AppContext } from "../../context.ts";
import type { Role, RoleUpdate } from "../../db/repositories/roles.ts";
import { ApiError } from "../../lib/errors.ts";
import { EVERYONE_ROLE_ID, OWNER_ROLE_ID, Permission } from "../../lib/roles.ts";

// Only light modules are imported by value: the command line checks arguments with the pure
// functions below before it loads the database layer.

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Each permission's name (the snake_case of its `Permission` key) and bit, in bit order. */
const BITS_BY_NAME: ReadonlyMap<string, number> = new Map(
  Object.entries(Permission).map(([key, bit]) => [snakeCase(key), bit]),
);

/** Every permission name, in bit order: administrator, devops, view_audit_log, ... */
export const PERMISSION_NAMES: readonly string[] = [...BITS_BY_NAME.keys()];

/** The bit a permission name stands for, if it is one. */
export function permissionBit(name: string): number | undefined {
  return BITS_BY_NAME.get(name);
}

/**
 * The names of the permissions set in `bits`, in bit order. A bit with no name (written by a newer
 * Mastodon, say) is shown as a hexadecimal number rather than hidden.
 */
export function permissionNames(bits: number): string[] {
  const names: string[] = [];
  let known = 0;
  for (const [name, bit] of BITS_BY_NAME) {
    known |= bit;
    if ((bits & bit) !== 0) names.push(name);
  }
  for (let bit = 1; bit !== 0 && bit <= bits; bit = (bit << 1) >>> 0) {
    if ((bits & bit) !== 0 && (known & bit) === 0) names.push(`0x${bit.toString(16)}`);
  }
  return names;
}

/**
 * Reads a comma-separated list of permission names ("manage_users,manage_reports"; spaces and
 * empty items are ignored, so "" is no permission) into a bitmask, or says which names are unknown.
 */
export function parsePermissions(list: string): { bits: number } | { unknown: string[] } {
  let bits = 0;
  const unknown: string[] = [];
  for (const item of list.split(",")) {
    const name = item.trim().toLowerCase();
    if (name === "") continue;
    const bit = BITS_BY_NAME.get(name);
    if (bit === undefined) unknown.push(item.trim());
    else bits |= bit;
  }
  return unknown.length > 0 ? { unknown } : { bits };
}

/** Why `name` cannot name a role (it must also be free), or undefined when it can. */
export function roleNameProblem(name: string): string | undefined {
  if (name.trim() === "") return "must not be blank";
  if (name !== name.trim()) return "must not start or end with spaces";
  // Names are printed in tab-separated listings.
  if (/\p{Cc}/u.test(name)) return "must not contain tabs, line breaks or other control characters";
  return undefined;
}

/** A badge color: "#rrggbb" or "#rgb", or "" for none. */
export function isRoleColor(color: string): boolean {
  return color === "" || /^#(?:[0-9a-f]{3}){1,2}$/i.test(color);
}

/** Positions are stored in a 32-bit integer column. */
export function isRolePosition(position: number): boolean {
  return Number.isInteger(position) && position >= -0x80000000 && position <= 0x7fffffff;
}

export interface NewRole {
  name: string;
  /** Bitmask of `Permission` bits (default none: members keep only everyone's permissions). */
  permissions?: number;
  /** Orders roles (default 0); the seeded ones are at 10 (Moderator), 100 (Admin) and 1000 (Owner). */
  position?: number;
  color?: string;
  /** Shown as a badge on members' profiles. */
  highlighted?: boolean;
}

/** What may change on a role; absent fields stay as they are. */
export interface RoleChanges {
  name?: string;
  /** Replaces the permissions; `add` and `remove` then apply on top. */
  permissions?: number;
  addPermissions?: number;
  removePermissions?: number;
  position?: number;
  color?: string;
  highlighted?: boolean;
}

export interface RoleOptions {
  /** `administrator` grants every permission, so granting it must be asked for explicitly. */
  allowAdministrator?: boolean;
}

const invalid = (message: string) => new ApiError(422, `Validation failed: ${message}`);

function checkAttributes(attrs: { name?: string; position?: number; color?: string }): void {
  if (attrs.name !== undefined) {
    const problem = roleNameProblem(attrs.name);
    if (problem) throw invalid(`Name ${problem}`);
  }
  if (attrs.position !== undefined && !isRolePosition(attrs.position)) throw invalid("Position is out of range");
  if (attrs.color !== undefined && !isRoleColor(attrs.color)) throw invalid("Color is invalid");
}

async function checkNameFree(ctx: AppContext, name: string, exceptId?: string): Promise<void> {
  const other = await ctx.repos.roles.getByName(name);
  if (other && other.id !== exceptId) throw invalid(`Name has already been taken (by the ${other.name} role)`);
}

function checkAdministrator(before: number, after: number, opts: RoleOptions): void {
  const gains = (after & Permission.administrator) !== 0 && (before & Permission.administrator) === 0;
  if (gains && !opts.allowAdministrator) {
    throw new ApiError(422, "Granting administrator (every permission) must be allowed explicitly");
  }
}

/** Creates a role with a new id; a taken name (compared case-insensitively) is a 422. */
export async function createRole(ctx: AppContext, input: NewRole, opts: RoleOptions = {}): Promise<Role> {
  checkAttributes(input);
  const permissions = input.permissions ?? 0;
  checkAdministrator(0, permissions, opts);
  await checkNameFree(ctx, input.name);
  const id = ctx.ids.next();
  const now = new Date().toISOString();
  try {
    await ctx.repos.roles.insert({
      id,
      name: input.name,
      color: input.color ?? "",
      permissions,
      position: input.position ?? 0,
      highlighted: input.highlighted ?? false,
      created_at: now,
      updated_at: now,
    });
  } catch (e) {
    // Another process took the name in the meantime: the unique index said no.
    await checkNameFree(ctx, input.name);
    throw e;
  }
  ctx.roles.invalidate();
  const role = await ctx.repos.roles.getById(id);
  if (!role) throw new ApiError(404, "Record not found");
  return role;
}

/**
 * Changes a role in one update. The everyone role keeps its name and position (it is not ranked
 * among the others); its permissions, which every user has, may change.
 */
export async function modifyRole(
  ctx: AppContext,
  role: Role,
  changes: RoleChanges,
  opts: RoleOptions = {},
): Promise<Role> {
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
  let permissions = changes.permissions ?? role.permissions;
  permissions = (permissions | (changes.addPermissions ?? 0)) & ~(changes.removePermissions ?? 0);
  if (permissions !== role.permissions) {
    checkAdministrator(role.permissions, permissions, opts);
    patch.permissions = permissions;
  }
  if (changes.color !== undefined && changes.color !== role.color) patch.color = changes.color;
  if (changes.highlighted !== undefined && changes.highlighted !== role.highlighted) {
    patch.highlighted = changes.highlighted;
  }
  if (Object.keys(patch).length === 0) return role;
  patch.updated_at = new Date().toISOString();
  try {
    await ctx.repos.roles.update(role.id, patch);
  } catch (e) {
    if (patch.name !== undefined) await checkNameFree(ctx, patch.name, role.id);
    throw e;
  }
  ctx.roles.invalidate();
  const updated = await ctx.repos.roles.getById(role.id);
  if (!updated) throw new ApiError(404, "Record not found");
  return updated;
}

/**
 * Deletes a role; its members go back to the everyone role in the same transaction. The everyone
 * and Owner roles stay. Returns how many users were moved.
 */
export async function deleteRole(ctx: AppContext, role: Role): Promise<{ movedUsers: number }> {
  if (role.id === EVERYONE_ROLE_ID) throw new ApiError(422, "The everyone role cannot be deleted");
  if (role.id === OWNER_ROLE_ID) throw new ApiError(422, `The ${role.name} role cannot be deleted`);
  const movedUsers = await ctx.repos.roles.delete(role.id, new Date().toISOString());
  ctx.roles.invalidate();
  return { movedUsers };
}
