import { Permission } from "../lib/roles.ts";
import {
  isRoleColor,
  isRolePosition,
  type NewRole,
  PERMISSION_NAMES,
  parsePermissions,
  permissionNames,
  type RoleChanges,
  roleNameProblem,
} from "../services/admin/roles.ts";
import { parseStrict } from "./parse-command.ts";
import { ROLES_CREATE_USAGE, ROLES_DELETE_USAGE, ROLES_LIST_USAGE, ROLES_MODIFY_USAGE, UsageError } from "./usage.ts";

/** `gannet roles ...`: the commands, as parsed. */
export type RolesCommand =
  | { kind: "roles-list" }
  | { kind: "roles-create"; role: NewRole; allowAdministrator: boolean }
  | { kind: "roles-modify"; name: string; changes: RoleChanges; allowAdministrator: boolean }
  | { kind: "roles-delete"; name: string };

function oneRoleName(positionals: string[], usage: string): string {
  if (positionals.length === 0) throw new UsageError("missing NAME", usage);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, usage);
  if (positionals[0] === "") throw new UsageError("NAME must not be empty", usage);
  return positionals[0];
}

/** A new name (create's NAME or modify's --name): good enough to store and to print in a listing. */
function checkNewRoleName(name: string, what: string, usage: string): string {
  const problem = roleNameProblem(name);
  if (problem) throw new UsageError(`${what} ${problem}`, usage);
  return name;
}

/** One or more comma-separated permission names; unknown ones are listed with the valid names. */
function permissionBits(list: string, usage: string): number {
  const parsed = parsePermissions(list);
  if ("bits" in parsed) return parsed.bits;
  const s = parsed.unknown.length > 1 ? "s" : "";
  throw new UsageError(
    `unknown permission${s}: ${parsed.unknown.join(", ")} (valid: ${PERMISSION_NAMES.join(", ")})`,
    usage,
  );
}

function position(value: string, usage: string): number {
  const n = /^[+-]?[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!isRolePosition(n)) throw new UsageError(`--position needs an integer, not "${value}"`, usage);
  return n;
}

function color(value: string, usage: string): string {
  if (!isRoleColor(value)) throw new UsageError(`--color needs #rrggbb (or "" for none), not "${value}"`, usage);
  return value;
}

const ADMINISTRATOR_NEEDS_FLAG = "granting administrator (every permission) needs --allow-administrator";

function parseRolesList(args: string[], usage: string): RolesCommand {
  const { positionals } = parseStrict(args, {}, usage);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, usage);
  return { kind: "roles-list" };
}

function parseRolesCreate(args: string[], usage: string): RolesCommand {
  const { values, positionals } = parseStrict(
    args,
    {
      permissions: { type: "string" },
      position: { type: "string" },
      color: { type: "string" },
      highlighted: { type: "boolean" },
      "allow-administrator": { type: "boolean" },
    },
    usage,
  );
  const name = checkNewRoleName(oneRoleName(positionals, usage), "NAME", usage);
  const role: NewRole = { name, highlighted: values.highlighted === true };
  if (typeof values.permissions === "string") role.permissions = permissionBits(values.permissions, usage);
  if (typeof values.position === "string") role.position = position(values.position, usage);
  if (typeof values.color === "string") role.color = color(values.color, usage);
  const allowAdministrator = values["allow-administrator"] === true;
  if ((role.permissions ?? 0) & Permission.administrator && !allowAdministrator) {
    throw new UsageError(ADMINISTRATOR_NEEDS_FLAG, usage);
  }
  return { kind: "roles-create", role, allowAdministrator };
}

function parseRolesModify(args: string[], usage: string): RolesCommand {
  const { values, positionals } = parseStrict(
    args,
    {
      name: { type: "string" },
      permissions: { type: "string" },
      "add-permission": { type: "string", multiple: true },
      "remove-permission": { type: "string", multiple: true },
      position: { type: "string" },
      color: { type: "string" },
      highlighted: { type: "boolean" },
      "not-highlighted": { type: "boolean" },
      "allow-administrator": { type: "boolean" },
    },
    usage,
  );
  const name = oneRoleName(positionals, usage);
  if (values.highlighted && values["not-highlighted"]) {
    throw new UsageError("--highlighted and --not-highlighted cannot go together", usage);
  }
  const changes: RoleChanges = {};
  if (typeof values.name === "string") changes.name = checkNewRoleName(values.name, "--name", usage);
  if (typeof values.permissions === "string") changes.permissions = permissionBits(values.permissions, usage);
  const add = (values["add-permission"] as string[] | undefined) ?? [];
  const remove = (values["remove-permission"] as string[] | undefined) ?? [];
  if (add.length > 0) changes.addPermissions = add.reduce((bits, p) => bits | permissionBits(p, usage), 0);
  if (remove.length > 0) changes.removePermissions = remove.reduce((bits, p) => bits | permissionBits(p, usage), 0);
  const both = (changes.addPermissions ?? 0) & (changes.removePermissions ?? 0);
  if (both !== 0) {
    throw new UsageError(`cannot both add and remove ${permissionNames(both).join(", ")}`, usage);
  }
  if (typeof values.position === "string") changes.position = position(values.position, usage);
  if (typeof values.color === "string") changes.color = color(values.color, usage);
  if (values.highlighted) changes.highlighted = true;
  if (values["not-highlighted"]) changes.highlighted = false;
  const allowAdministrator = values["allow-administrator"] === true;
  const granted = (changes.permissions ?? 0) | (changes.addPermissions ?? 0);
  if (granted & Permission.administrator && !allowAdministrator) throw new UsageError(ADMINISTRATOR_NEEDS_FLAG, usage);
  return { kind: "roles-modify", name, changes, allowAdministrator };
}

function parseRolesDelete(args: string[], usage: string): RolesCommand {
  const { positionals } = parseStrict(args, {}, usage);
  return { kind: "roles-delete", name: oneRoleName(positionals, usage) };
}

/** The `roles` subcommands: their usage and parser. */
export const ROLES_SUBCOMMANDS: Record<
  string,
  { usage: string; parse: (args: string[], usage: string) => RolesCommand }
> = {
  "roles list": { usage: ROLES_LIST_USAGE, parse: parseRolesList },
  "roles create": { usage: ROLES_CREATE_USAGE, parse: parseRolesCreate },
  "roles modify": { usage: ROLES_MODIFY_USAGE, parse: parseRolesModify },
  "roles delete": { usage: ROLES_DELETE_USAGE, parse: parseRolesDelete },
};
