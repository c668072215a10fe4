import { type Config, ConfigError, loadConfig } from "../../config/index.ts";
import { type CheckResult, runChecks } from "../../services/operations/doctor.ts";
import type { Output } from "../output.ts";
import type { OperationsCommand } from "../parse-operations.ts";
import { EXIT_FAILURE, EXIT_OK } from "../usage.ts";

function line(r: CheckResult): string {
  const head = `${r.status.padEnd(4)} ${r.check}: ${r.message}`;
  return r.fix ? `${head}\n       fix: ${r.fix}` : head;
}

/**
 * `gannet doctor`. It loads the settings itself: a setting that does not load is the first
 * thing it reports, as a failed check rather than a usage error.
 */
export async function doctor(
  cmd: Extract<OperationsCommand, { kind: "doctor" }>,
  env: Record<string, string | undefined>,
  io: Output,
): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    await io.out(
      line({
        check: "settings",
        status: "FAIL",
        message: e.message,
        fix: "correct that setting in the environment or .env (see docs/configuration.md)",
      }),
    );
    return EXIT_FAILURE;
  }
  const results: CheckResult[] = [{ check: "settings", status: "ok", message: "the settings load" }];
  results.push(...(await runChecks(config, { url: cmd.url })));
  for (const r of results) await io.out(line(r));
  return results.some((r) => r.status === "FAIL") ? EXIT_FAILURE : EXIT_OK;
}
