import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { SECRET_KEY_FILE } from "../../config/index.ts";
import { backupSqlite, pgDump, pgLastMigration, sqliteLastMigration, sqlitePath } from "../../db/backup.ts";
import { localMediaDir } from "../../infra/blobs/local.ts";
import { GANNET_VERSION } from "../../lib/version.ts";

/**
 * `gannet backup`: the database, the media files and the secret key in one directory with a
 * manifest, taken while the server runs. The database is copied first and the media after, so
 * every file the copied database refers to is already there (uploads since only add files).
 */

/** The settings a backup and a restore need (plain values: services do not read the config module). */
export interface OperationsSettings {
  dataDir: string;
  databaseUrl?: string;
  secretKey: string;
  localDomain: string;
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: "gannet-backup";
  formatVersion: 1;
  gannetVersion: string;
  /** The last migration applied to the copied database. */
  schemaVersion: string | null;
  dialect: "sqlite" | "postgres";
  createdAt: string;
  /** The server's LOCAL_DOMAIN: accounts' addresses and URIs depend on it, it must not change. */
  localDomain: string;
  /** `file`: the key is in the backup; `environment`: it came from SECRET_KEY and must be carried over by hand. */
  secretKey: "file" | "environment";
  files: ManifestFile[];
}

export const MANIFEST = "manifest.json";
export const SQLITE_COPY = "database.sqlite3";
export const PG_DUMP = "database.pgdump";
/** The secret key and the media directory inside a backup. */
export const SECRET_FILE = "secret_key";
export const MEDIA_DIR = "media";

/** A failure with a message meant for the operator (the command prints it as it is). */
export class OperationError extends Error {
  override name = "OperationError";
}

/** Whether the secret key in use is the one Gannet generated into DATA_DIR (not SECRET_KEY from the environment). */
export async function secretKeyFromFile(s: OperationsSettings): Promise<boolean> {
  const file = join(s.dataDir, SECRET_KEY_FILE);
  if (!existsSync(file)) return false;
  return (await readFile(file, "utf8")).trim() === s.secretKey;
}

export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/** Every regular file under `root`, as paths relative to it with `/` separators, sorted. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort();
}

async function describe(root: string, paths: string[]): Promise<ManifestFile[]> {
  const out: ManifestFile[] = [];
  for (const path of paths) {
    const full = join(root, path);
    out.push({ path, size: (await stat(full)).size, sha256: await sha256File(full) });
  }
  return out;
}

/** Writes a backup into `dest`, which must not exist yet or be an empty directory. */
export async function createBackup(s: OperationsSettings, dest: string): Promise<Manifest> {
  if (existsSync(dest)) {
    const st = await stat(dest);
    if (!st.isDirectory() || (await readdir(dest)).length > 0) {
      throw new OperationError(`${dest} already exists: give a new directory (or an empty one)`);
    }
  }
  // It holds the secret key and every account's data: readable by this user only.
  await mkdir(dest, { recursive: true, mode: 0o700 });
  const dialect = s.databaseUrl ? "postgres" : "sqlite";
  let schemaVersion: string | undefined;
  if (s.databaseUrl) {
    schemaVersion = await pgLastMigration(s.databaseUrl);
    await pgDump(s.databaseUrl, join(dest, PG_DUMP));
  } else {
    const source = sqlitePath(s.dataDir);
    if (!existsSync(source)) {
      throw new OperationError(
        `no database at ${source}: is DATA_DIR right? (the server creates it at its first start)`,
      );
    }
    await backupSqlite(source, join(dest, SQLITE_COPY));
    schemaVersion = sqliteLastMigration(join(dest, SQLITE_COPY));
  }
  const media = localMediaDir(s.dataDir);
  if (existsSync(media)) await cp(media, join(dest, MEDIA_DIR), { recursive: true });
  const fromFile = await secretKeyFromFile(s);
  if (fromFile) await writeFile(join(dest, SECRET_FILE), `${s.secretKey}\n`, { mode: 0o600 });
  const manifest: Manifest = {
    format: "gannet-backup",
    formatVersion: 1,
    gannetVersion: GANNET_VERSION,
    schemaVersion: schemaVersion ?? null,
    dialect,
    createdAt: new Date().toISOString(),
    localDomain: s.localDomain,
    secretKey: fromFile ? "file" : "environment",
    files: await describe(dest, await listFiles(dest)),
  };
  await writeFile(join(dest, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}
