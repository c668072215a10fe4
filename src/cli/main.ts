import { type Config, ConfigError, loadConfig, readEnvironment } from "../config/index.ts";
import { type Output, processOutput } from "./output.ts";
import { type Command, parseCommand } from "./parse-command.ts";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./usage.ts";

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
  if (cmd.kind === "doctor") {
    const { doctor } = await import("./commands/doctor.ts");
    return doctor(cmd, readEnvironment(), io);
  }
  let config: Config;
  try {
    config = loadConfig(readEnvironment());
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    await io.err(`gannet: configuration error: ${e.message}`);
    return EXIT_USAGE;
  }
  // Loaded only now: help and usage errors answer at once, without the server's modules.
  if (cmd.kind === "backup" || cmd.kind === "restore") {
    const { runBackupCommand } = await import("./commands/backup.ts");
    return runBackupCommand(config, cmd, io);
  }
  const { runDatabaseCommand } = await import("./run-command.ts");
  return runDatabaseCommand(config, cmd, io);
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
