import type { Context, Hono } from "hono";
import { z } from "zod";
import { Permission } from "../../../../lib/roles.ts";
import {
  ACCOUNT_ACTION_TYPES,
  deleteAccountData,
  findActionTarget,
  performAccountAction,
  unsensitiveAccount,
  unsilenceAccount,
  unsuspendAccount,
} from "../../../../services/moderation/account-actions.ts";
import { adminAccountJson } from "../../../../services/moderation/accounts.ts";
import { moderatorOf } from "../../../../services/moderation/action-log.ts";
import { requireAdmin } from "../../../middleware/admin-auth.ts";
import { currentAccount } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish, text, validate } from "../../../validate.ts";

// Mastodon authorizes every one of these with `show?` (Manage Users) first.
const WRITE = requireAdmin(Permission.manageUsers, "admin:write:accounts");
const DESTROY = requireAdmin(Permission.deleteUserData, "admin:write:accounts");

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

/** An id given as a string or (JSON clients) a number. */
const idParam = z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().max(40));

export const actionSchema = z.object({
  type: z.enum(ACCOUNT_ACTION_TYPES, { message: "is not included in the list" }),
  text: optional(text(5000)),
  report_id: optional(idParam),
  warning_preset_id: optional(idParam),
  send_email_notification: optional(boolish),
});

const target = (c: Context<HonoEnv>) => findActionTarget(c.env.ctx, c.req.param("id") ?? "");

/** 1.28 Admin API: moderation actions on an account, their undoing, and deleting a suspended account's data. */
export function adminAccountActionRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/admin/accounts/:id/action", ...WRITE, async (c) => {
    const ctx = c.env.ctx;
    const account = await target(c);
    const p = validate(actionSchema, await readParams(c));
    await performAccountAction(ctx, moderatorOf(currentAccount(c)), account, {
      type: p.type,
      text: p.text,
      reportId: p.report_id,
      warningPresetId: p.warning_preset_id,
      sendEmailNotification: p.send_email_notification,
    });
    return c.json({});
  });

  app.post("/api/v1/admin/accounts/:id/unsilence", ...WRITE, async (c) => {
    const account = await target(c);
    await unsilenceAccount(c.env.ctx, moderatorOf(currentAccount(c)), account);
    return c.json(await adminAccountJson(c.env.ctx, account.id));
  });

  app.post("/api/v1/admin/accounts/:id/unsensitive", ...WRITE, async (c) => {
    const account = await target(c);
    await unsensitiveAccount(c.env.ctx, moderatorOf(currentAccount(c)), account);
    return c.json(await adminAccountJson(c.env.ctx, account.id));
  });

  app.post("/api/v1/admin/accounts/:id/unsuspend", ...WRITE, async (c) => {
    const account = await target(c);
    await unsuspendAccount(c.env.ctx, moderatorOf(currentAccount(c)), account);
    return c.json(await adminAccountJson(c.env.ctx, account.id));
  });

  // The account as it was when its deletion was queued (Mastodon renders it before its worker runs).
  app.delete("/api/v1/admin/accounts/:id", ...DESTROY, async (c) => {
    const account = await target(c);
    const json = await adminAccountJson(c.env.ctx, account.id);
    await deleteAccountData(c.env.ctx, moderatorOf(currentAccount(c)), account);
    return c.json(json);
  });
}
