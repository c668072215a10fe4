import type { AppContext } from "../../context.ts";
import type { Role } from "../../db/repositories/roles.ts";
import { ApiError } from "../../lib/errors.ts";
import { permissionNames } from "../../services/admin/roles.ts";
import { COMMAND_LINE_ROLES, createRole, deleteRole, modifyRole } from "../../services/moderation/roles.ts";
import type { Output } from "../output.ts";
import type { Command } from "../parse-command.ts";
import { CommandError } from "../usage.ts";

/** The role named `name` (case-insensitively), or a CommandError listing the roles there are. */
async function requireRole(ctx: AppContext, name: string): Promise<Role> {
  const role = await ctx.repos.roles.getByName(name);
  if (role) return role;
  const names = (await ctx.repos.roles.all()).map((r) => r.name).join(", ");
  throw new CommandError(`no role named ${name} (roles: ${names})`);
}

/** Validation failures come back as a 422 whose message already reads well on a terminal. */
function asCommandError(e: unknown): unknown {
  return e instanceof ApiError ? new CommandError(e.message) : e;
}

const yesNo = (b: boolean) => (b ? "yes" : "no");

export async function rolesList(ctx: AppContext, io: Output): Promise<void> {
  await io.out(["id", "name", "position", "highlighted", "color", "permissions"].join("\t"));
  for (const r of await ctx.repos.roles.all()) {
    const permissions = permissionNames(r.permissions).join(",");
    await io.out([r.id, r.name, String(r.position), yesNo(r.highlighted), r.color, permissions].join("\t"));
  }
}

export async function rolesCreate(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "roles-create" }>,
  io: Output,
): Promise<void> {
  try {
    await createRole(ctx, COMMAND_LINE_ROLES, cmd.role, { allowAdministrator: cmd.allowAdministrator });
  } catch (e) {
    throw asCommandError(e);
  }
  await io.out("OK");
}

export async function rolesModify(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "roles-modify" }>,
  io: Output,
): Promise<void> {
  const role = await requireRole(ctx, cmd.name);
  try {
    await modifyRole(ctx, COMMAND_LINE_ROLES, role, cmd.changes, { allowAdministrator: cmd.allowAdministrator });
  } catch (e) {
    throw asCommandError(e);
  }
  await io.out("OK");
}

export async function rolesDelete(
  ctx: AppContext,
  cmd: Extract<Command, { kind: "roles-delete" }>,
  io: Output,
): Promise<void> {
  const role = await requireRole(ctx, cmd.name);
  let moved: number;
  try {
    moved = (await deleteRole(ctx, COMMAND_LINE_ROLES, role)).movedUsers;
  } catch (e) {
    throw asCommandError(e);
  }
  await io.out("OK");
  if (moved > 0) {
    await io.err(`note: ${moved} account${moved === 1 ? "" : "s"} went back to the everyone role`);
  }
}
