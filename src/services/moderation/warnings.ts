import { getLogger } from "@logtape/logtape";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { AccountWarning, WarningAction } from "../../db/repositories/account-warnings.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { DB } from "../../db/schema.ts";
import { serializeAccountWarning } from "../../serializers/account-warning.ts";
import { accountsJson } from "../accounts/views.ts";
import { notificationCreated } from "../push/deliver.ts";
import { publishNotification } from "../streaming/publish.ts";
import type { Moderator } from "./action-log.ts";

export type { AccountWarning, WarningAction };

const logger = getLogger(["gannet", "moderation"]);

/** What a strike records. */
export interface WarningInput {
  action: WarningAction;
  text: string;
  reportId: string | null;
  statusIds: readonly string[];
}

/** Stores a strike against `target` (Mastodon's AccountWarning), in the action's transaction. */
export async function recordWarning(
  ctx: AppContext,
  by: Moderator,
  target: Account,
  input: WarningInput,
  db?: Kysely<DB>,
): Promise<AccountWarning> {
  const warning: AccountWarning = {
    id: ctx.ids.next(),
    accountId: by.accountId,
    targetAccountId: target.id,
    action: input.action,
    text: input.text,
    statusIds: [...input.statusIds],
    reportId: input.reportId,
    overruledAt: null,
    createdAt: new Date().toISOString(),
  };
  await ctx.repos.accountWarnings.insert(warning, db);
  return warning;
}

/** The e-mail subjects of Mastodon's `UserMailer#warning`, by action. */
const SUBJECTS: Record<WarningAction, (acct: string) => string> = {
  none: (a) => `Warning for ${a}`,
  disable: (a) => `Your account ${a} has been frozen`,
  mark_statuses_as_sensitive: (a) => `Your posts on ${a} have been marked as sensitive`,
  delete_statuses: (a) => `Your posts on ${a} have been removed`,
  sensitive: (a) => `Your posts on ${a} will be marked as sensitive from now on`,
  silence: (a) => `Your account ${a} has been limited`,
  suspend: (a) => `Your account ${a} has been suspended`,
};

const EXPLANATIONS: Record<WarningAction, string> = {
  none: "A moderator has sent you a warning.",
  disable: "You can no longer use your account, but your profile and other data remain intact.",
  mark_statuses_as_sensitive: "Some of your posts have been marked as sensitive by the moderators.",
  delete_statuses: "Some of your posts have been removed by the moderators.",
  sensitive: "From now on, all your uploaded media files will be marked as sensitive and hidden behind a warning.",
  silence:
    "You can still use your account, but only people who are already following you will see your posts on this server, and you may be excluded from discovery features.",
  suspend:
    "You can no longer use your account, and your profile and other data are no longer accessible. Your data is kept for a while, then deleted.",
};

/**
 * Tells a local account about a strike: a `moderation_warning` notification (from the account
 * itself, as Mastodon stores it; never grouped) and, when `email`, a mail to its address.
 * Remote accounts are not told (Mastodon neither).
 */
export async function deliverWarning(
  ctx: AppContext,
  target: Account,
  warning: AccountWarning,
  email: boolean,
): Promise<void> {
  if (target.domain !== null) return;
  const now = new Date();
  const id = ctx.ids.next(now);
  const stored = await ctx.repos.notifications.insert({
    id,
    account_id: target.id,
    from_account_id: target.id,
    type: "moderation_warning",
    status_id: null,
    activity_id: warning.id,
    group_key: `ungrouped-${id}`,
    created_at: now.toISOString(),
  });
  if (stored) {
    await notificationCreated(ctx, {
      id,
      accountId: target.id,
      fromAccountId: target.id,
      type: "moderation_warning",
    });
    await publishNotification(ctx, target.id, id);
  }
  if (!email) return;
  const user = await ctx.repos.users.getByAccountId(target.id);
  if (!user) return;
  const acct = `${target.username}@${ctx.config.localDomain}`;
  const lines = [EXPLANATIONS[warning.action]];
  if (warning.text !== "") lines.push("", "Note from the moderators:", "", warning.text);
  lines.push("", `${ctx.config.baseUrl}/@${target.username}`);
  // The action has been taken already; a mail server that fails is logged, not an error.
  await ctx.mailer
    .send({
      to: user.email,
      subject: `${ctx.config.siteTitle}: ${SUBJECTS[warning.action](acct)}`,
      text: lines.join("\n"),
    })
    .catch((error: unknown) => logger.error("Could not mail a warning to {to}: {error}", { to: user.email, error }));
}

/**
 * AccountWarning JSON by warning id, for the `moderation_warning` notifications among `ids`, in
 * a bounded number of queries. A warning whose account is gone is left out.
 */
export async function warningsJsonById(
  ctx: AppContext,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return out;
  const warnings = await ctx.repos.accountWarnings.getByIds([...new Set(ids)]);
  const accounts = await ctx.repos.accounts.getByIds([...new Set(warnings.map((w) => w.targetAccountId))]);
  const json = await accountsJson(ctx, accounts);
  const byId = new Map(accounts.map((a, i) => [a.id, json[i]]));
  for (const w of warnings) {
    const target = byId.get(w.targetAccountId);
    if (target) out.set(w.id, serializeAccountWarning(w, target));
  }
  return out;
}
