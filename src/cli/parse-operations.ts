import { parseStrict } from "./parse-command.ts";
import { UsageError } from "./usage.ts";

/** `gannet backup`, `restore` and `doctor`: commands of one word, for running a server rather than its data. */
export type OperationsCommand =
  | { kind: "backup"; dest: string }
  | { kind: "restore"; source: string; force: boolean }
  | { kind: "doctor"; url?: string };

export const BACKUP_USAGE = `Usage: gannet backup DIR|FILE.tar

Writes a backup of this server into DIR (a new or empty directory), or into one file when the
name ends in .tar: the database (SQLite's online backup, or pg_dump --format=custom when
DATABASE_URL is set), the media files, the secret key (unless SECRET_KEY comes from the
environment) and manifest.json (Gannet version, schema version, checksums). The server may
keep running. Prints a summary.
`;

export const RESTORE_USAGE = `Usage: gannet restore DIR|FILE.tar [--force]

Restores a backup written by "gannet backup" (a directory or a .tar file) into this DATA_DIR
(or the empty PostgreSQL database of DATABASE_URL), after checking every file against the
manifest; then prints what it restored and what is left to do. Run it with the server stopped.
  --force  replace an existing database and media directory (pg_restore --clean --if-exists)
`;

export const DOCTOR_USAGE = `Usage: gannet doctor [--url BASE_URL]

Checks the settings, the database (reachable, migrations applied), Redis (when REDIS_URL is
set), the media directory (writable), ffmpeg, and that the public URL reaches this server. Prints
one line per check: ok, warn or FAIL, with the fix. Exits 1 when a check fails.
  --url BASE_URL  probe this address instead of https://WEB_DOMAIN (e.g. http://127.0.0.1:3000)
`;

function onePath(positionals: string[], name: string, usage: string): string {
  if (positionals.length === 0) throw new UsageError(`missing ${name}`, usage);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`, usage);
  if (positionals[0] === "") throw new UsageError(`${name} must not be empty`, usage);
  return positionals[0];
}

export const OPERATIONS_COMMANDS: Record<string, { usage: string; parse: (args: string[]) => OperationsCommand }> = {
  backup: {
    usage: BACKUP_USAGE,
    parse(args) {
      const { positionals } = parseStrict(args, {}, BACKUP_USAGE);
      return { kind: "backup", dest: onePath(positionals, "DIR or FILE.tar", BACKUP_USAGE) };
    },
  },
  restore: {
    usage: RESTORE_USAGE,
    parse(args) {
      const { values, positionals } = parseStrict(args, { force: { type: "boolean" } }, RESTORE_USAGE);
      return {
        kind: "restore",
        source: onePath(positionals, "DIR or FILE.tar", RESTORE_USAGE),
        force: values.force === true,
      };
    },
  },
  doctor: {
    usage: DOCTOR_USAGE,
    parse(args) {
      const { values, positionals } = parseStrict(args, { url: { type: "string" } }, DOCTOR_USAGE);
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, DOCTOR_USAGE);
      const url = values.url as string | undefined;
      if (url !== undefined && !/^https?:\/\//.test(url)) {
        throw new UsageError(`--url needs an http:// or https:// address, not "${url}"`, DOCTOR_USAGE);
      }
      return { kind: "doctor", url };
    },
  },
};
