import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { OperationError } from "./backup.ts";

/**
 * A backup as one `.tar` file: the backup directory packed by the system's `tar` (run without a
 * shell). The manifest inside still carries every file's checksum, checked after unpacking.
 */

export const isTarPath = (path: string) => /\.tar$/i.test(path);

function tar(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("tar", args, { maxBuffer: 16 * 1024 * 1024 }, (err, _out, stderr) =>
      err ? reject(new OperationError(`tar failed: ${stderr.trim() || err.message}`)) : resolve(),
    );
  });
}

/**
 * Runs `write` on a new, empty directory beside `file`, packs it into `file` and removes it. The
 * directory is beside the archive, not in /tmp, which is often a small RAM disk.
 */
export async function packInto<T>(file: string, write: (dir: string) => Promise<T>): Promise<T> {
  if (existsSync(file)) throw new OperationError(`${file} already exists: give a new file name`);
  const dir = await mkdtemp(join(dirname(file), `.${basename(file)}-`));
  try {
    const result = await write(dir);
    await tar(["--create", `--file=${file}`, `--directory=${dir}`, "."]);
    // It holds the secret key and everyone's data, as the directory (mkdtemp's 0700) did.
    await chmod(file, 0o600);
    return result;
  } catch (e) {
    await rm(file, { force: true });
    throw e;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Unpacks `file` into a new directory under `under`, runs `read` on it, then removes the directory. */
export async function unpackFrom<T>(file: string, under: string, read: (dir: string) => Promise<T>): Promise<T> {
  if (!(await stat(file)).isFile()) throw new OperationError(`${file} is not a file`);
  const dir = await mkdtemp(join(under, ".restore-"));
  try {
    // GNU tar drops leading slashes and refuses members with "..": nothing lands outside dir.
    await tar(["--extract", `--file=${file}`, `--directory=${dir}`, "--no-same-owner"]);
    return await read(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
