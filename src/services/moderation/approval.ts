import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { User } from "../../db/repositories/users.ts";
import { forbidden } from "../../lib/errors.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";
import { enqueueAdminSignUp } from "../notifications/admin-sign-up.ts";
import { adminAccountJson, adminAccountsJson } from "./accounts.ts";
import { logAction, type Moderator } from "./action-log.ts";

const logger = getLogger(["gannet", "moderation"]);

/** A local account with its user: what approve, reject and enable act on. */
interface Target {
  account: Account;
  user: User;
}

/** How summaries name a local account. */
const handle = (account: Account) => `@${account.username}`;

/**
 * The local account with a user that approve, reject and enable act on; 403 for a remote or deleted
 * account, as Mastodon's `require_local_account!`.
 */
async function localTarget(ctx: AppContext, account: Account): Promise<Target> {
  if (account.domain !== null || isAccountDeleted(account)) throw forbidden();
  const user = await ctx.repos.users.getByAccountId(account.id);
  if (!user) throw forbidden();
  return { account, user };
}

/** Mastodon's welcome mail, sent when an approved user can start (their address is confirmed). */
function sendWelcome(ctx: AppContext, account: Account, user: User): void {
  const { siteTitle, localDomain } = ctx.config;
  ctx.mailer
    .send({
      to: user.email,
      subject: `Welcome to ${siteTitle}`,
      text: [
        `Your account @${account.username}@${localDomain} has been approved.`,
        "",
        `You can sign in now: ${ctx.config.baseUrl}/auth/sign_in`,
      ].join("\n"),
    })
    .catch((error: unknown) =>
      logger.error("Could not send a welcome mail to {to}: {error}", { to: user.email, error }),
    );
}

/**
 * Approves a pending sign-up (Mastodon's `approve!`); 403 when the user is already approved (its
 * UserPolicy#approve?). A user whose address is confirmed becomes usable at once: staff get the
 * `admin.sign_up` notification and the user a welcome mail.
 */
export async function approveAccount(
  ctx: AppContext,
  by: Moderator,
  account: Account,
): Promise<Record<string, unknown>> {
  const { user } = await localTarget(ctx, account);
  if (user.approved) throw forbidden();
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.repos.users.update(user.id, { approved: true, updated_at: new Date().toISOString() }, trx);
    await logAction(
      ctx,
      by,
      {
        action: "approve",
        targetType: "User",
        targetId: user.id,
        humanIdentifier: handle(account),
        summary: `approved the sign-up of ${handle(account)}`,
      },
      trx,
    );
  });
  if (user.confirmedAt !== null) {
    await enqueueAdminSignUp(ctx, account.id);
    sendWelcome(ctx, account, user);
  }
  return adminAccountJson(ctx, account.id);
}

/**
 * Rejects a pending sign-up: the user and the account are deleted outright, so the name and the
 * address can be used again (Mastodon's DeleteAccountService without reserving the username).
 * 403 for an approved user. Answers the account as it was.
 */
export async function rejectAccount(
  ctx: AppContext,
  by: Moderator,
  account: Account,
): Promise<Record<string, unknown>> {
  const { user } = await localTarget(ctx, account);
  if (user.approved) throw forbidden();
  const [before] = await adminAccountsJson(ctx, [account]);
  await ctx.db.transaction().execute(async (trx) => {
    await logAction(
      ctx,
      by,
      {
        action: "reject",
        targetType: "User",
        targetId: user.id,
        humanIdentifier: handle(account),
        summary: `rejected the sign-up of ${handle(account)}`,
      },
      trx,
    );
    await ctx.repos.adminAccounts.deleteRejected(account.id, user.id, trx);
  });
  return before;
}

/** Lets a disabled user sign in again (Mastodon's `enable!`); logged whatever the user's state was. */
export async function enableAccount(
  ctx: AppContext,
  by: Moderator,
  account: Account,
): Promise<Record<string, unknown>> {
  const { user } = await localTarget(ctx, account);
  await ctx.db.transaction().execute(async (trx) => {
    if (user.disabled) {
      await ctx.repos.users.update(user.id, { disabled: false, updated_at: new Date().toISOString() }, trx);
    }
    await logAction(
      ctx,
      by,
      {
        action: "enable",
        targetType: "User",
        targetId: user.id,
        humanIdentifier: handle(account),
        summary: `enabled the login of ${handle(account)}`,
      },
      trx,
    );
  });
  return adminAccountJson(ctx, account.id);
}
