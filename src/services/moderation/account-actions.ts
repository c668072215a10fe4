import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { WarningAction } from "../../db/repositories/account-warnings.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { DB } from "../../db/schema.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError, forbidden, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { Permission } from "../../lib/roles.ts";
import { isAccountDeleted } from "../../policies/accounts.ts";
import { logAction, type Moderator } from "./action-log.ts";
import { closeStreams, markSuspended, markUnsuspended, purgeable, queuePurge } from "./suspension.ts";
import { type AccountWarning, deliverWarning, recordWarning } from "./warnings.ts";

/** The `type`s of `POST /api/v1/admin/accounts/:id/action` (Mastodon's Admin::AccountAction::TYPES). */
export const ACCOUNT_ACTION_TYPES = ["none", "disable", "sensitive", "silence", "suspend"] as const;
export type AccountActionType = (typeof ACCOUNT_ACTION_TYPES)[number];

export interface AccountActionInput {
  type: AccountActionType;
  /** Added to the warning, after the preset's text. */
  text?: string;
  /** The report acted on: resolved and linked to the warning (its statuses named in it). */
  reportId?: string;
  warningPresetId?: string;
  /** Mail the user about it (default true, as Mastodon). */
  sendEmailNotification?: boolean;
}

/** How an action log names an account: `@alice`, `@troll@remote.example`. */
export const acctOf = (a: Pick<Account, "username" | "domain">): string =>
  a.domain === null ? `@${a.username}` : `@${a.username}@${a.domain}`;

const invalidType = () => new ApiError(422, "Validation failed: Type is not included in the list");

/** The account an admin endpoint acts on, by id (local or remote), or a 404. */
export async function findActionTarget(ctx: AppContext, id: string): Promise<Account> {
  const account = isId(id) ? await ctx.repos.accounts.getById(id) : undefined;
  if (!account) throw notFound();
  return account;
}

/** The account named `username` or `user@domain` (a local one with the local domain), or undefined. */
export async function findAccountByAcct(ctx: AppContext, acct: string): Promise<Account | undefined> {
  const [username, domain] = acct.replace(/^@/, "").split("@", 2);
  if (!username) return undefined;
  const local = domain === undefined || domain.toLowerCase() === ctx.config.localDomain.toLowerCase();
  return ctx.repos.accounts.getByUsername(username, local ? null : domain.toLowerCase());
}

/** The role the moderator holds; undefined for the `gannet` command (which may do anything). */
async function roleOf(ctx: AppContext, by: Moderator) {
  if (by.accountId === null) return undefined;
  const user = await ctx.repos.users.getByAccountId(by.accountId);
  if (!user) throw forbidden();
  return { id: user.roleId, position: (await ctx.roles.get(user.roleId))?.position ?? -1 };
}

/**
 * Mastodon's `role.overrides?(target.role)`: staff act only on accounts whose role is below
 * their own (so nobody acts on themselves, and a moderator not on an administrator). Remote
 * accounts have no role.
 */
async function requireOverride(ctx: AppContext, by: Moderator, target: Account): Promise<void> {
  const role = await roleOf(ctx, by);
  if (role === undefined || target.domain !== null) return;
  const user = await ctx.repos.users.getByAccountId(target.id);
  if (!user) return;
  const targetRole = await ctx.roles.get(user.roleId);
  if (targetRole && targetRole.position >= role.position) throw forbidden();
}

/**
 * `POST /api/v1/admin/accounts/:id/action` and the `gannet accounts` actions, as Mastodon's
 * Admin::AccountAction: in one transaction the action (`sensitive`, `silence`, `suspend`, or
 * `disable` for a local account's login), its log entry, the strike (an AccountWarning with the
 * preset's and the given text, and the report's statuses) and the resolution of the reports it
 * settles (the given one for `none`, else every unresolved report about the account). Then a
 * local account is told (a `moderation_warning` notification, and a mail unless
 * `sendEmailNotification` is false). A bad preset or report is a 404 and changes nothing.
 */
export async function performAccountAction(
  ctx: AppContext,
  by: Moderator,
  target: Account,
  input: AccountActionInput,
): Promise<AccountWarning> {
  if (!(ACCOUNT_ACTION_TYPES as readonly string[]).includes(input.type)) throw invalidType();
  if (input.type === "disable" && target.domain !== null) throw invalidType();
  if (isAccountDeleted(target)) throw forbidden();
  const preset =
    input.warningPresetId === undefined
      ? undefined
      : isId(input.warningPresetId)
        ? await ctx.repos.accountWarnings.getPreset(input.warningPresetId)
        : undefined;
  if (input.warningPresetId !== undefined && !preset) throw notFound();
  const report =
    input.reportId === undefined
      ? undefined
      : isId(input.reportId)
        ? await ctx.repos.reports.getById(input.reportId)
        : undefined;
  if (input.reportId !== undefined && !report) throw notFound();
  const user = target.domain === null ? await ctx.repos.users.getByAccountId(target.id) : undefined;
  if (input.type === "disable" && !user) throw invalidType();
  if (input.type !== "none" || input.text || preset) await requireOverride(ctx, by, target);
  const role = await roleOf(ctx, by);
  // Read before the transaction (the role cache may query, and SQLite has one connection).
  const mayResolve = role === undefined || (await ctx.roles.can(role.id, Permission.manageReports));
  const text = [preset?.text, input.text].filter((t): t is string => t !== undefined && t !== "").join("\n\n");
  const acct = acctOf(target);

  const warning = await transactionWithJobs(ctx, async (trx, jobs) => {
    const now = new Date().toISOString();
    switch (input.type) {
      case "disable":
        if (user) await ctx.repos.users.update(user.id, { disabled: true, updated_at: now }, trx);
        await logAction(
          ctx,
          by,
          {
            action: "disable",
            targetType: "User",
            targetId: user?.id ?? null,
            humanIdentifier: acct,
            summary: `disabled the login of ${acct}`,
          },
          trx,
        );
        break;
      case "sensitive":
        await ctx.repos.accounts.update(target.id, { sensitized_at: target.sensitizedAt ?? now, updated_at: now }, trx);
        await logAccount(ctx, by, target, "sensitive", `marked the media of ${acct} as sensitive`, trx);
        break;
      case "silence":
        await ctx.repos.accounts.update(target.id, { silenced_at: target.silencedAt ?? now, updated_at: now }, trx);
        await logAccount(ctx, by, target, "silence", `limited ${acct}`, trx);
        break;
      case "suspend":
        await markSuspended(ctx, target, trx, jobs, user?.email);
        await logAccount(ctx, by, target, "suspend", `suspended ${acct}`, trx);
        break;
      case "none":
        break;
    }
    const strike = await recordWarning(
      ctx,
      by,
      target,
      { action: input.type as WarningAction, text, reportId: report?.id ?? null, statusIds: report?.statusIds ?? [] },
      trx,
    );
    // Only a warning with words from someone is worth a log entry (Mastodon).
    if (input.type === "none" && text !== "") {
      await logAction(
        ctx,
        by,
        {
          action: "create",
          targetType: "AccountWarning",
          targetId: strike.id,
          humanIdentifier: acct,
          summary: `sent a warning to ${acct}`,
        },
        trx,
      );
    }
    const reportIds =
      input.type === "none"
        ? report
          ? [report.id]
          : []
        : await ctx.repos.accountModeration.unresolvedReportIds(target.id, trx);
    if (reportIds.length > 0 && !mayResolve) {
      throw forbidden();
    }
    await ctx.repos.accountModeration.resolveReports(reportIds, by.accountId, now, trx);
    for (const id of reportIds) {
      await logAction(
        ctx,
        by,
        {
          action: "resolve",
          targetType: "Report",
          targetId: id,
          humanIdentifier: `#${id}`,
          summary: `resolved report #${id}`,
        },
        trx,
      );
    }
    return strike;
  });
  if (input.type === "suspend") await closeStreams(ctx, target);
  await deliverWarning(ctx, target, warning, input.sendEmailNotification ?? true);
  return warning;
}

function logAccount(ctx: AppContext, by: Moderator, target: Account, action: string, summary: string, trx: Kysely<DB>) {
  return logAction(
    ctx,
    by,
    { action, targetType: "Account", targetId: target.id, humanIdentifier: acctOf(target), summary },
    trx,
  );
}

/** `POST /api/v1/admin/accounts/:id/unsilence`: lifts the limit (logged even when there was none, as Mastodon). */
export async function unsilenceAccount(ctx: AppContext, by: Moderator, target: Account): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    await ctx.repos.accounts.update(target.id, { silenced_at: null, updated_at: now }, trx);
    await logAccount(ctx, by, target, "unsilence", `lifted the limit on ${acctOf(target)}`, trx);
  });
}

/** `POST /api/v1/admin/accounts/:id/unsensitive`: its media are no longer forced sensitive. */
export async function unsensitiveAccount(ctx: AppContext, by: Moderator, target: Account): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    await ctx.repos.accounts.update(target.id, { sensitized_at: null, updated_at: now }, trx);
    await logAccount(
      ctx,
      by,
      target,
      "unsensitive",
      `stopped marking the media of ${acctOf(target)} as sensitive`,
      trx,
    );
  });
}

/**
 * `POST /api/v1/admin/accounts/:id/unsuspend`: only a suspension made here can be lifted (403
 * otherwise, as Mastodon's policy); the account has everything back, and a local account's
 * followers' servers get its whole actor again.
 */
export async function unsuspendAccount(ctx: AppContext, by: Moderator, target: Account): Promise<void> {
  if (target.suspendedAt === null || target.suspensionOrigin !== "local") throw forbidden();
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await markUnsuspended(ctx, target, trx, jobs);
    await logAccount(ctx, by, target, "unsuspend", `lifted the suspension of ${acctOf(target)}`, trx);
  });
}

/**
 * `DELETE /api/v1/admin/accounts/:id`: deletes a suspended account's data for good, now rather
 * than after SUSPENSION_PURGE_DELAY_DAYS (a background job). Only a suspended account: 403
 * otherwise, as Mastodon. The name stays taken.
 */
export async function deleteAccountData(ctx: AppContext, by: Moderator, target: Account): Promise<void> {
  if (!purgeable(target)) throw forbidden();
  await ctx.db.transaction().execute(async (trx) => {
    await logAccount(ctx, by, target, "destroy", `deleted the data of ${acctOf(target)}`, trx);
  });
  await queuePurge(ctx, target.id);
}
