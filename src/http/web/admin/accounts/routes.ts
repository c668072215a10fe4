import type { Context, Hono } from "hono";
import type { AppContext } from "../../../../context.ts";
import { ApiError } from "../../../../lib/errors.ts";
import type { Account } from "../../../../services/accounts/types.ts";
import {
  ACCOUNT_ACTION_TYPES,
  type AccountActionType,
  deleteAccountData,
  performAccountAction,
  unsensitiveAccount,
  unsilenceAccount,
  unsuspendAccount,
} from "../../../../services/moderation/account-actions.ts";
import { type Moderator, moderatorOf } from "../../../../services/moderation/action-log.ts";
import { approveAccount, enableAccount, rejectAccount } from "../../../../services/moderation/approval.ts";
import { assignRole, roleActorOf } from "../../../../services/moderation/roles.ts";
import type { Params } from "../../../oauth/params.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked, field } from "../../guard.ts";
import { type Translate, t } from "../../i18n/index.ts";
import { Permission, type Staff, staffForm } from "../guard.ts";
import { redirectWithNotice } from "../layout.ts";
import { accountListPage } from "./list.ts";
import { accountPage, accountShowPage, findPageAccount, notFoundPage } from "./show.ts";

/** What an action does; answers the notice key to show after it, or a redirect of its own. */
type Done =
  | "admin.accounts.approved"
  | "admin.accounts.acted"
  | "admin.accounts.undone"
  | "admin.accounts.data_deleted"
  | "admin.accounts.role_changed"
  | { redirect: string };

/** What an action works with: the service context, the acting staff member, the account, the form. */
interface ActInput {
  ctx: AppContext;
  by: Moderator;
  me: Staff;
  account: Account;
  params: Params;
  tr: Translate;
}

type Act = (input: ActInput) => Promise<Done>;

/**
 * A panel action on one account: the staff member holds `permission` (the admin API's for the
 * same endpoint) and the form's CSRF token matches; the action goes through the admin API's
 * service as this staff member (so it is written to the action log). Then back to the account's
 * page with a notice; a refusal of the service (403, 422) shows the page with its reason.
 */
function accountAction(permission: number, act: Act) {
  return async (c: Context<HonoEnv>): Promise<Response> => {
    const form = await staffForm(c, permission);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const account = await findPageAccount(c, c.req.param("id") ?? "");
    if (!account) return notFoundPage(c);
    const tr = t(c);
    let done: Done;
    try {
      done = await act({ ctx: c.env.ctx, by: moderatorOf(me.account), me, account, params, tr });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
      const fresh = (await findPageAccount(c, account.id)) ?? account;
      return accountPage(c, me, fresh, {
        error: tr("admin.accounts.error", { message: e.message }),
        status: e.status,
      });
    }
    if (typeof done === "object") return c.redirect(done.redirect, 303);
    return redirectWithNotice(c, `/admin/accounts/${account.id}`, done);
  };
}

const isActionType = (v: string): v is AccountActionType => (ACCOUNT_ACTION_TYPES as readonly string[]).includes(v);

/** The moderation panel's accounts pages (docs/web-admin-accounts.md). */
export function adminAccountPages(app: Hono<HonoEnv>): void {
  app.get("/admin/accounts", accountListPage);
  app.get("/admin/accounts/:id{[0-9]+}", accountShowPage);

  app.post(
    "/admin/accounts/:id{[0-9]+}/approve",
    accountAction(Permission.manageUsers, async ({ ctx, by, account }) => {
      await approveAccount(ctx, by, account);
      return "admin.accounts.approved";
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/reject",
    accountAction(Permission.manageUsers, async ({ ctx, by, account }) => {
      await rejectAccount(ctx, by, account);
      return { redirect: "/admin/accounts?status=pending&notice=admin.accounts.rejected" };
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/action",
    accountAction(Permission.manageUsers, async ({ ctx, by, account, params }) => {
      const type = field(params, "type", 40);
      if (!isActionType(type)) throw new ApiError(422, "Validation failed: Type is not included in the list");
      const text = field(params, "text", 5000).trim();
      await performAccountAction(ctx, by, account, {
        type,
        text: text === "" ? undefined : text,
        sendEmailNotification: checked(params, "send_email_notification"),
      });
      return "admin.accounts.acted";
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/unsensitive",
    accountAction(Permission.manageUsers, async ({ ctx, by, account }) => {
      await unsensitiveAccount(ctx, by, account);
      return "admin.accounts.undone";
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/unsilence",
    accountAction(Permission.manageUsers, async ({ ctx, by, account }) => {
      await unsilenceAccount(ctx, by, account);
      return "admin.accounts.undone";
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/unsuspend",
    accountAction(Permission.manageUsers, async ({ ctx, by, account }) => {
      await unsuspendAccount(ctx, by, account);
      return "admin.accounts.undone";
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/enable",
    accountAction(Permission.manageUsers, async ({ ctx, by, account }) => {
      await enableAccount(ctx, by, account);
      return "admin.accounts.undone";
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/delete",
    accountAction(Permission.deleteUserData, async ({ ctx, by, account, params, tr }) => {
      if (!checked(params, "confirm")) throw new ApiError(422, tr("admin.accounts.delete_confirm_missing"));
      await deleteAccountData(ctx, by, account);
      return "admin.accounts.data_deleted";
    }),
  );
  app.post(
    "/admin/accounts/:id{[0-9]+}/role",
    accountAction(Permission.manageRoles, async ({ ctx, by, account, params, me }) => {
      const actor = await roleActorOf(ctx, by, me.user.roleId);
      const roleId = field(params, "role_id", 40).trim();
      await assignRole(ctx, actor, account.id, roleId === "" ? null : roleId);
      return "admin.accounts.role_changed";
    }),
  );
}
