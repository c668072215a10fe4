import type { Kysely } from "kysely";
import type { AppContext } from "../../context.ts";
import type { ActionLogEntry, ActionLogFilter } from "../../db/repositories/admin-action-logs.ts";
import type { DB } from "../../db/schema.ts";
import type { IdWindow } from "../../lib/pagination.ts";

export type { ActionLogEntry, ActionLogFilter };

/**
 * Who performs a moderation action: a staff member's account (API, web pages), or the operator
 * at a shell (`gannet`), who has no account.
 */
export interface Moderator {
  /** The acting account; null for the `gannet` command. */
  accountId: string | null;
  /** How summaries name the actor: `@alice`, or "The gannet command". */
  label: string;
}

/** The operator at a shell. */
export const COMMAND_LINE: Moderator = Object.freeze({ accountId: null, label: "The gannet command" });

/** A staff member acting through the API or the web pages. */
export function moderatorOf(account: { id: string; username: string }): Moderator {
  return { accountId: account.id, label: `@${account.username}` };
}

/** What one action did, in Mastodon's terms. */
export interface ActionRecord {
  /** Mastodon's action name: `suspend`, `silence`, `create`, `update`, `destroy`, `approve`, ... */
  action: string;
  /** Mastodon's target type: `Account`, `User`, `Report`, `DomainBlock`, `DomainAllow`, `EmailDomainBlock`, `CanonicalEmailBlock`, `IpBlock`, `Tag`, `UserRole`, `Announcement`, `CustomEmoji`, `Form::AdminSettings`, ... */
  targetType: string;
  targetId: string | null;
  /** A readable name of the target kept after it is gone: `@alice`, `bob@example.com`, a domain, a role name. */
  humanIdentifier: string | null;
  /** What happened, after the actor's name: "suspended @troll@example.com". */
  summary: string;
}

/**
 * Records one moderation action. Pass the transaction that makes the change, so that the entry
 * and the change commit together (or neither does).
 */
export async function logAction(
  ctx: Pick<AppContext, "repos" | "ids">,
  by: Moderator,
  record: ActionRecord,
  db?: Kysely<DB>,
): Promise<ActionLogEntry> {
  const entry: ActionLogEntry = {
    id: ctx.ids.next(),
    accountId: by.accountId,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    humanIdentifier: record.humanIdentifier,
    summary: `${by.label} ${record.summary}`,
    createdAt: new Date().toISOString(),
  };
  await ctx.repos.adminActionLogs.insert(entry, db);
  return entry;
}

/** One page of the log, newest first. */
export function actionLogPage(ctx: AppContext, filter: ActionLogFilter, window: IdWindow): Promise<ActionLogEntry[]> {
  return ctx.repos.adminActionLogs.page(filter, window);
}
