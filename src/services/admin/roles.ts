import { Permission } from "../../lib/roles.ts";

// Only light modules are imported by value: the command line checks arguments with the pure
// functions below before it loads the database layer. Creating, changing, deleting and
// assigning roles (shared by the admin API and `gannet roles`) is in services/moderation/roles.ts.

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Each permission's name (the snake_case of its `Permission` key) and bit, in bit order. */
const BITS_BY_NAME: ReadonlyMap<string, number> = new Map(
  Object.entries(Permission).map(([key, bit]) => [snakeCase(key), bit]),
);

/** Every permission name, in bit order: administrator, devops, view_audit_log, ... */
export const PERMISSION_NAMES: readonly string[] = [...BITS_BY_NAME.keys()];

/** Every permission bit Gannet knows, OR-ed: what the administrator permission amounts to. */
export const ALL_PERMISSIONS: number = [...BITS_BY_NAME.values()].reduce((a, b) => a | b, 0);

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
