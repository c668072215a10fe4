import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Config } from "../../config/index.ts";
import { isTarPath, packInto, unpackFrom } from "../../services/operations/archive.ts";
import { createBackup, OperationError } from "../../services/operations/backup.ts";
import { restoreBackup } from "../../services/operations/restore.ts";
import type { Output } from "../output.ts";
import type { OperationsCommand } from "../parse-operations.ts";
import { EXIT_FAILURE, EXIT_OK } from "../usage.ts";

/** Human-readable byte counts for the summary lines. */
function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * `gannet backup` and `gannet restore`. They open no application context: a restore must find
 * the target database as it is (the context would run migrations into it first).
 */
export async function runBackupCommand(
  config: Config,
  cmd: Extract<OperationsCommand, { kind: "backup" | "restore" }>,
  io: Output,
): Promise<number> {
  try {
    if (cmd.kind === "backup") {
      const dest = resolve(cmd.dest);
      const m = isTarPath(dest)
        ? await packInto(dest, (dir) => createBackup(config, dir))
        : await createBackup(config, dest);
      const total = m.files.reduce((sum, f) => sum + f.size, 0);
      const media = m.files.filter((f) => f.path.startsWith("media/")).length;
      await io.out(`backup\t${dest}`);
      await io.out(`gannet\t${m.gannetVersion}`);
      await io.out(`schema\t${m.schemaVersion ?? "none"}`);
      await io.out(`database\t${m.dialect}`);
      await io.out(`media files\t${media}`);
      await io.out(`secret key\t${m.secretKey === "file" ? "included" : "from SECRET_KEY, not included"}`);
      await io.out(`total\t${m.files.length} files, ${bytes(total)}`);
      if (m.secretKey === "environment") {
        await io.err("gannet: SECRET_KEY comes from the environment: keep it with the backup, a restore needs it");
      }
      return EXIT_OK;
    }
    const source = resolve(cmd.source);
    const restore = (dir: string) => restoreBackup(config, dir, { force: cmd.force });
    // Unpacked inside DATA_DIR: the same file system, and not /tmp, which is often a small RAM disk.
    const r =
      existsSync(source) && statSync(source).isFile()
        ? await unpackFrom(source, config.dataDir, restore)
        : await restore(source);
    await io.out(`restored a backup of ${r.manifest.createdAt} (Gannet ${r.manifest.gannetVersion}):`);
    for (const line of r.done) await io.out(`  ${line}`);
    await io.out("still to do:");
    for (const line of r.todo) await io.out(`  - ${line}`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    // The operator needs the reason (a full disk, a refused connection, pg_dump's message), not a stack.
    const what = e instanceof OperationError ? "" : `${cmd.kind} failed: `;
    await io.err(`gannet: ${what}${e.message}`);
    if (!(e instanceof OperationError) && config.logLevel === "debug" && e.stack) await io.err(e.stack);
    return EXIT_FAILURE;
  }
}
