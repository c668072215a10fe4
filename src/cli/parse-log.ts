import { parseStrict } from "./parse-command.ts";
import { UsageError } from "./usage.ts";

/** `gannet log`: the action log, newest first. */
export interface LogCommand {
  kind: "log";
  limit: number;
  /** A local username: only what that staff member did. */
  account?: string;
  /** Only actions on this kind of target (`Account`, `Report`, `UserRole`, ...). */
  targetType?: string;
}

export const LOG_DEFAULT_LIMIT = 50;
const LOG_MAX_LIMIT = 10_000;

export const LOG_USAGE = `Usage: gannet log [--limit N] [--account USERNAME] [--target-type TYPE]

Prints the action log (what staff and this command did: suspensions, blocks, report handling,
roles, announcements, emojis, ...), newest first: one tab-separated line per entry after a header
line (id, time, who, action, target type, target id, summary). "who" is the staff member's
username, or "-" for the gannet command.
  --limit N             at most N entries (default ${LOG_DEFAULT_LIMIT})
  --account USERNAME    only what this local staff member did
  --target-type TYPE    only actions on this kind of target: Account, User, Report, UserRole,
                        DomainBlock, Announcement, CustomEmoji, ...
`;

export function parseLog(args: string[]): LogCommand {
  const { values, positionals } = parseStrict(
    args,
    { limit: { type: "string" }, account: { type: "string" }, "target-type": { type: "string" } },
    LOG_USAGE,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, LOG_USAGE);
  let limit = LOG_DEFAULT_LIMIT;
  if (values.limit !== undefined) {
    const raw = String(values.limit).trim();
    limit = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(limit >= 1 && limit <= LOG_MAX_LIMIT)) {
      throw new UsageError(
        `--limit must be a whole number from 1 to ${LOG_MAX_LIMIT}, not "${values.limit}"`,
        LOG_USAGE,
      );
    }
  }
  const account = (values.account as string | undefined)?.trim().replace(/^@/, "");
  if (account === "") throw new UsageError("--account needs a username", LOG_USAGE);
  const targetType = (values["target-type"] as string | undefined)?.trim();
  if (targetType === "") throw new UsageError("--target-type needs a type such as Account", LOG_USAGE);
  return { kind: "log", limit, account, targetType };
}
