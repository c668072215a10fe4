import type { Context, Hono } from "hono";
import { z } from "zod";
import { Permission } from "../../../../lib/roles.ts";
import { ALL_PERMISSIONS } from "../../../../services/admin/roles.ts";
import { adminAccountJson } from "../../../../services/moderation/accounts.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import * as roles from "../../../../services/moderation/roles.ts";
import { adminRoleJson } from "../../../../services/moderation/views.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount, currentUser } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, intish, validate } from "../../../validate.ts";

const READ = requireAdmin(Permission.manageRoles, "admin:read");
const WRITE = requireAdmin(Permission.manageRoles, "admin:write");
const ASSIGN = requireAdmin(Permission.manageRoles, "admin:write:accounts");

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), schema.optional());

/** Mastodon's bitmask string ("1048575"), or a number; only the bits Mastodon defines. */
const permissions = z.preprocess(
  (v) => (typeof v === "string" && /^\d{1,16}$/.test(v.trim()) ? Number(v.trim()) : v),
  z
    .number({ message: "must be a bitmask of role permissions, as a decimal string" })
    .int()
    .min(0)
    .refine((n) => Number.isSafeInteger(n) && n - (n & ALL_PERMISSIONS) === 0, {
      message: "include unknown permission bits",
    }),
);

const roleFields = {
  name: z.string().max(255, "is too long (maximum is 255 characters)"),
  color: optional(z.string()),
  position: optional(intish),
  permissions: optional(permissions),
  highlighted: optional(boolish),
};

export const createRoleSchema = z.object(roleFields);
export const updateRoleSchema = z.object({ ...roleFields, name: optional(roleFields.name) });
export const assignRoleSchema = z.object({
  role_id: z.preprocess(
    (v) => (typeof v === "number" ? String(v) : v),
    z.string({ message: "must be a role id, or empty to remove the role" }).nullable(),
  ),
});

async function actor(c: Context<HonoEnv>): Promise<roles.RoleActor> {
  return roles.roleActorOf(c.env.ctx, moderatorOf(currentAccount(c)), currentUser(c).roleId);
}

/** 1.28 Admin API: roles and role assignment (Manage Roles; a Gannet extension: Mastodon has only a web page). */
export function adminRoleRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/admin/roles", ...READ, async (c) => c.json((await roles.listRoles(c.env.ctx)).map(adminRoleJson)));

  app.get("/api/v1/admin/roles/:id", ...READ, async (c) =>
    c.json(adminRoleJson(await roles.findRole(c.env.ctx, c.req.param("id")))),
  );

  app.post("/api/v1/admin/roles", ...WRITE, async (c) => {
    const p = validate(createRoleSchema, await readParams(c));
    const role = await roles.createRole(c.env.ctx, await actor(c), p);
    return c.json(adminRoleJson(role));
  });

  app.put("/api/v1/admin/roles/:id", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const role = await roles.findRole(ctx, c.req.param("id"));
    const p = validate(updateRoleSchema, await readParams(c));
    return c.json(adminRoleJson(await roles.modifyRole(ctx, await actor(c), role, p)));
  });

  app.delete("/api/v1/admin/roles/:id", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const role = await roles.findRole(ctx, c.req.param("id"));
    await roles.deleteRole(ctx, await actor(c), role);
    return c.json({});
  });

  app.post("/api/v1/admin/accounts/:id/role", ...ASSIGN, async (c) => {
    const ctx = c.env.ctx;
    const p = validate(assignRoleSchema, await readParams(c));
    const account = await roles.assignRole(ctx, await actor(c), c.req.param("id"), p.role_id);
    return c.json(await adminAccountJson(ctx, account.id));
  });
}
