import { configure, defaultTextFormatter, type LogRecord } from "@logtape/logtape";
import type { Config } from "../config/index.ts";
import { type AppContext, createContext } from "../context.ts";
import { accountsAction } from "./commands/account-actions.ts";
import {
  accountsApprove,
  accountsCreate,
  accountsDelete,
  accountsList,
  accountsModify,
  accountsReject,
} from "./commands/accounts.ts";
import { announcementsChange, announcementsCreate, announcementsList } from "./commands/announcements.ts";
import { blocksCommand } from "./commands/blocks.ts";
import { domainsBlock, domainsChange, domainsList } from "./commands/domains.ts";
import { emojiAdd, emojiDelete, emojiImport, emojiList } from "./commands/emoji.ts";
import { jobsList } from "./commands/jobs.ts";
import { logList } from "./commands/log.ts";
import { accountsAliases, accountsMove } from "./commands/migration.ts";
import { rolesCreate, rolesDelete, rolesList, rolesModify } from "./commands/roles.ts";
import { tokensCreate } from "./commands/tokens.ts";
import type { Output } from "./output.ts";
import type { Command } from "./parse-command.ts";
import { CommandError, EXIT_FAILURE, EXIT_OK } from "./usage.ts";

export type DatabaseCommand = Exclude<Command, { kind: "help" | "backup" | "restore" | "doctor" }>;

async function dispatch(ctx: AppContext, cmd: DatabaseCommand, io: Output): Promise<void> {
  switch (cmd.kind) {
    case "accounts-create":
      return accountsCreate(ctx, cmd, io);
    case "accounts-modify":
      return accountsModify(ctx, cmd, io);
    case "accounts-delete":
      return accountsDelete(ctx, cmd, io);
    case "accounts-list":
      return accountsList(ctx, io);
    case "accounts-aliases":
      return accountsAliases(ctx, cmd, io);
    case "accounts-move":
      return accountsMove(ctx, cmd, io);
    case "accounts-approve":
      return accountsApprove(ctx, cmd.username, io);
    case "accounts-reject":
      return accountsReject(ctx, cmd.username, io);
    case "roles-list":
      return rolesList(ctx, io);
    case "roles-create":
      return rolesCreate(ctx, cmd, io);
    case "roles-modify":
      return rolesModify(ctx, cmd, io);
    case "roles-delete":
      return rolesDelete(ctx, cmd, io);
    case "tokens-create":
      return tokensCreate(ctx, cmd, io);
    case "jobs-list":
      return jobsList(ctx, io);
    case "emoji-add":
      return emojiAdd(ctx, cmd, io);
    case "emoji-import":
      return emojiImport(ctx, cmd, io);
    case "emoji-list":
      return emojiList(ctx, io);
    case "emoji-delete":
      return emojiDelete(ctx, cmd, io);
    case "domains-block":
      return domainsBlock(ctx, cmd, io);
    case "domains-unblock":
    case "domains-allow":
    case "domains-disallow":
      return domainsChange(ctx, cmd, io);
    case "domains-list":
      return domainsList(ctx, io);
    case "email-domain-blocks-add":
    case "email-domain-blocks-remove":
    case "email-domain-blocks-list":
    case "ip-blocks-add":
    case "ip-blocks-remove":
    case "ip-blocks-list":
    case "canonical-email-blocks-add":
    case "canonical-email-blocks-remove":
    case "canonical-email-blocks-list":
      return blocksCommand(ctx, cmd, io);
    case "accounts-action":
      return accountsAction(ctx, cmd, io);
    case "announcements-create":
      return announcementsCreate(ctx, cmd, io);
    case "announcements-list":
      return announcementsList(ctx, io);
    case "announcements-publish":
    case "announcements-unpublish":
    case "announcements-delete":
      return announcementsChange(ctx, cmd, io);
    case "log":
      return logList(ctx, cmd, io);
  }
}

/** Logs never reach stdout: it carries only the command's answer. */
async function configureLogging(config: Config): Promise<void> {
  const stderrSink = (record: LogRecord) => {
    process.stderr.write(defaultTextFormatter(record));
  };
  const level = config.logLevel === "debug" ? "debug" : "warning";
  await configure({
    sinks: { stderr: stderrSink },
    loggers: [
      { category: ["gannet"], lowestLevel: level, sinks: ["stderr"] },
      { category: ["fedify"], lowestLevel: level === "debug" ? "debug" : "error", sinks: ["stderr"] },
      { category: ["logtape", "meta"], lowestLevel: "warning", sinks: ["stderr"] },
    ],
  });
}

/** Opens the database, runs one command, and always closes the database again. */
export async function runDatabaseCommand(config: Config, cmd: DatabaseCommand, io: Output): Promise<number> {
  await configureLogging(config);
  let ctx: AppContext;
  try {
    ctx = await createContext(config, { listenForChanges: false });
  } catch (e) {
    await io.err(`gannet: cannot open the database: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT_FAILURE;
  }
  try {
    await dispatch(ctx, cmd, io);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof CommandError)) throw e;
    await io.err(`gannet: ${e.message}`);
    return EXIT_FAILURE;
  } finally {
    await ctx.close();
  }
}
