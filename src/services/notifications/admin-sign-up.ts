import type { AppContext } from "../../context.ts";
import { EVERYONE_ROLE_ID, Permission, roleCan } from "../../db/repositories/roles.ts";
import { notificationCreated } from "../push/deliver.ts";
import { publishNotification } from "../streaming/publish.ts";
import { groupKeyFor } from "./group-key.ts";

export const ADMIN_SIGN_UP_JOB = "notifications.admin-sign-up";

export interface AdminSignUpJob {
  accountId: string;
}

/**
 * Queues the `admin.sign_up` notifications for a new local account. Mastodon sends them once the
 * account is usable (e-mail confirmed and approved: its BootstrapTimelineService), so callers do
 * this at sign-up, confirmation or approval, whichever completes it.
 */
export async function enqueueAdminSignUp(ctx: AppContext, accountId: string): Promise<void> {
  await ctx.queue.enqueue(ADMIN_SIGN_UP_JOB, { accountId } satisfies AdminSignUpJob, {
    dedupeKey: `${ADMIN_SIGN_UP_JOB}:${accountId}`,
  });
}

/**
 * The `notifications.admin-sign-up` job: every local user whose role grants `manage_users`
 * gets an `admin.sign_up` notification from the new account (no status). The new account is
 * its cause, so a job that runs twice notifies once.
 */
export async function notifyAdminSignUp(ctx: AppContext, job: AdminSignUpJob): Promise<void> {
  if (typeof job?.accountId !== "string") return;
  const account = await ctx.repos.accounts.getById(job.accountId);
  if (!account || account.domain !== null) return;
  const roles = await ctx.repos.roles.all();
  const everyone = roles.find((r) => r.id === EVERYONE_ROLE_ID);
  const staffRoles = roles.filter((r) => roleCan(r, everyone, Permission.manageUsers)).map((r) => r.id);
  const recipients = await ctx.repos.notifications.localAccountIdsWithRoles(staffRoles);
  for (const recipientId of recipients) {
    if (recipientId === account.id) continue;
    const now = new Date();
    const id = ctx.ids.next(now);
    const stored = await ctx.repos.notifications.insert({
      id,
      account_id: recipientId,
      from_account_id: account.id,
      type: "admin.sign_up",
      status_id: null,
      activity_id: account.id,
      group_key: await groupKeyFor(ctx, recipientId, "admin.sign_up", null, id, now),
      created_at: now.toISOString(),
    });
    await notificationCreated(ctx, { id, accountId: recipientId, fromAccountId: account.id, type: "admin.sign_up" });
    if (stored) await publishNotification(ctx, recipientId, id);
  }
}
