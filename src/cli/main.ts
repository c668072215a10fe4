import { configure, defaultTextFormatter, type LogRecord } from "@logtape/logtape";
import { type Config, ConfigError, loadConfig, readEnvironment } from "../config/index.ts";
import { type AppContext, createContext } from "../context.ts";
import { accountsCreate, accountsDelete, accountsList, accountsModify } from "./commands/accounts.ts";
import { tokensCreate } from "./commands/tokens.ts";
import { type Output, processOutput } from "./output.ts";
import { type Command, parseCommand } from "./parse-command.ts";
import { CommandError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./usage.ts";

async function dispatch(ctx: AppContext, cmd: Exclude<Command, { kind: "help" }>, io: Output): Promise<void> {
  switch (cmd.kind) {
    case "accounts-create":
      return accountsCreate(ctx, cmd, io);
    case "accounts-modify":
      return accountsModify(ctx, cmd, io);
    case "accounts-delete":
      return accountsDelete(ctx, cmd, io);
    case "accounts-list":
      return accountsList(ctx, io);
    case "tokens-create":
      return tokensCreate(ctx, cmd, io);
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
      { category: ["fedify"], lowestLevel: "error", sinks: ["stderr"] },
      { category: ["logtape", "meta"], lowestLevel: "warning", sinks: ["stderr"] },
    ],
  });
}

/** Runs the `gannet` command line and returns its exit status. */
export async function runCli(argv: readonly string[], io: Output = processOutput): Promise<number> {
  let cmd: Command;
  try {
    cmd = parseCommand(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    await io.err(`gannet: ${e.message}\n`);
    await io.err(e.usage.trimEnd());
    return EXIT_USAGE;
  }
  if (cmd.kind === "help") {
    await io.out(cmd.text.trimEnd());
    return EXIT_OK;
  }
  let config: Config;
  try {
    config = loadConfig(readEnvironment());
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    await io.err(`gannet: configuration error: ${e.message}`);
    return EXIT_USAGE;
  }
  await configureLogging(config);
  let ctx: AppContext;
  try {
    ctx = await createContext(config);
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

if (import.meta.main) {
  let status: number;
  try {
    status = await runCli(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`gannet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    status = EXIT_FAILURE;
  }
  process.exitCode = status;
  // A stray handle (a pool, a timer) must not keep an administration command hanging.
  setTimeout(() => process.exit(status), 2000).unref();
}
