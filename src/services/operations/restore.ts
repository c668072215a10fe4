import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, normalize } from "node:path";
import { SECRET_KEY_FILE } from "../../config/index.ts";
import { pgHasTables, pgRestore, sqliteHasTables, sqlitePath } from "../../db/backup.ts";
import { knownMigrations } from "../../db/migration-status.ts";
import { localMediaDir } from "../../infra/blobs/local.ts";
import {
  MANIFEST,
  type Manifest,
  MEDIA_DIR,
  OperationError,
  type OperationsSettings,
  PG_DUMP,
  SECRET_FILE,
  SQLITE_COPY,
  secretKeyFromFile,
  sha256File,
} from "./backup.ts";

/**
 * `gannet restore`: puts a backup written by `gannet backup` into this machine's DATA_DIR (or
 * the PostgreSQL database of DATABASE_URL). It refuses to replace data unless forced, and checks
 * every file against the manifest before it changes anything.
 */

export interface RestoreReport {
  manifest: Manifest;
  /** What was restored, one line each. */
  done: string[];
  /** What the operator must still do, one line each. */
  todo: string[];
}

export async function readManifest(dir: string): Promise<Manifest> {
  const file = join(dir, MANIFEST);
  if (!existsSync(file)) throw new OperationError(`${dir} is not a Gannet backup: it has no ${MANIFEST}`);
  let m: Manifest;
  try {
    m = JSON.parse(await readFile(file, "utf8")) as Manifest;
  } catch (e) {
    throw new OperationError(`${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (m.format !== "gannet-backup" || m.formatVersion !== 1 || !Array.isArray(m.files)) {
    throw new OperationError(`${file} is not a Gannet backup manifest this version can read`);
  }
  return m;
}

/** Every file the manifest lists is there with its size and checksum; the names of those that are not. */
export async function verifyFiles(dir: string, m: Manifest): Promise<string[]> {
  const bad: string[] = [];
  for (const f of m.files) {
    const safe = typeof f.path === "string" && !isAbsolute(f.path) && !normalize(f.path).startsWith("..");
    const full = join(dir, f.path);
    if (!safe) bad.push(`${f.path} (a path outside the backup)`);
    else if (!existsSync(full)) bad.push(`${f.path} (missing)`);
    else if ((await stat(full)).size !== f.size) bad.push(`${f.path} (size differs)`);
    else if ((await sha256File(full)) !== f.sha256) bad.push(`${f.path} (checksum differs)`);
  }
  return bad;
}

async function nonEmptyDir(path: string): Promise<boolean> {
  return existsSync(path) && (await stat(path)).isDirectory() && (await readdir(path)).length > 0;
}

export async function restoreBackup(
  s: OperationsSettings,
  dir: string,
  opts: { force: boolean },
): Promise<RestoreReport> {
  const m = await readManifest(dir);
  const bad = await verifyFiles(dir, m);
  if (bad.length > 0) {
    throw new OperationError(`the backup is damaged, nothing was restored: ${bad.join(", ")}`);
  }
  const here = s.databaseUrl ? "postgres" : "sqlite";
  if (m.dialect !== here) {
    throw new OperationError(
      m.dialect === "sqlite"
        ? "this is a backup of a SQLite database: unset DATABASE_URL to restore it (moving between SQLite and PostgreSQL is not supported)"
        : "this is a backup of a PostgreSQL database: set DATABASE_URL to an empty database to restore it",
    );
  }
  const known = await knownMigrations();
  if (m.schemaVersion && !known.includes(m.schemaVersion)) {
    throw new OperationError(
      `the backup's schema (${m.schemaVersion}, Gannet ${m.gannetVersion}) is newer than this Gannet's: install Gannet ${m.gannetVersion} or later first`,
    );
  }

  // Nothing is replaced unless asked for.
  const media = localMediaDir(s.dataDir);
  const occupied: string[] = [];
  if (s.databaseUrl ? await pgHasTables(s.databaseUrl) : sqliteHasTables(sqlitePath(s.dataDir))) {
    occupied.push(
      s.databaseUrl ? "the database of DATABASE_URL has Gannet's tables" : `${sqlitePath(s.dataDir)} exists`,
    );
  }
  if (await nonEmptyDir(media)) occupied.push(`${media} has files`);
  if (occupied.length > 0 && !opts.force) {
    throw new OperationError(
      `refusing to overwrite existing data (${occupied.join("; ")}): restore into an empty DATA_DIR and database, or stop the server and pass --force to replace them`,
    );
  }

  const done: string[] = [];
  const todo: string[] = [];
  if (s.databaseUrl) {
    await pgRestore(s.databaseUrl, join(dir, PG_DUMP), opts.force);
    done.push(`database: restored with pg_restore (schema ${m.schemaVersion ?? "empty"})`);
  } else {
    const target = sqlitePath(s.dataDir);
    await mkdir(s.dataDir, { recursive: true });
    // Written beside the target then renamed over it; a stale -wal or -shm must not be replayed into it.
    const temp = `${target}.restoring`;
    await copyFile(join(dir, SQLITE_COPY), temp);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${target}${suffix}`, { force: true });
    await rename(temp, target);
    done.push(`database: ${target} (schema ${m.schemaVersion ?? "empty"})`);
  }

  const mediaFiles = m.files.filter((f) => f.path.startsWith(`${MEDIA_DIR}/`));
  if (existsSync(join(dir, MEDIA_DIR))) {
    if (opts.force) await rm(media, { recursive: true, force: true });
    await cp(join(dir, MEDIA_DIR), media, { recursive: true });
  }
  done.push(`media: ${mediaFiles.length} files into ${media}`);

  if (m.secretKey === "file") {
    const key = (await readFile(join(dir, SECRET_FILE), "utf8")).trim();
    const envKeyDiffers = !(await secretKeyFromFile(s)) && s.secretKey !== key;
    await writeFile(join(s.dataDir, SECRET_KEY_FILE), `${key}\n`, { mode: 0o600 });
    done.push(`secret key: ${join(s.dataDir, SECRET_KEY_FILE)}`);
    if (envKeyDiffers) {
      todo.push(
        "SECRET_KEY is set in this environment and differs from the backup's key: unset it (the restored secret_key file is then used) or set it to the key in the backup",
      );
    }
  } else {
    todo.push(
      "the old server took SECRET_KEY from its environment, which is not in the backup: set the same SECRET_KEY here (browser sessions and Web Push subscriptions depend on it)",
    );
  }
  if (m.localDomain !== s.localDomain) {
    todo.push(
      `set LOCAL_DOMAIN=${m.localDomain} as on the old server (it is ${s.localDomain} here): accounts' addresses depend on it`,
    );
  }
  todo.push("start the server (a newer Gannet upgrades the schema at its start), then run gannet doctor");
  todo.push("point the domain's DNS and the reverse proxy at this machine");
  return { manifest: m, done, todo };
}
