import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sqlitePath } from "../../db/backup.ts";
import { createDatabase } from "../../db/database.ts";
import { migrationStatus } from "../../db/migration-status.ts";
import { localMediaDir } from "../../infra/blobs/local.ts";
import { isLocalHost } from "../../lib/domains.ts";

/**
 * `gannet doctor`: the checks an operator runs after installing, upgrading or moving a server.
 * Each answers ok, warn (works, but probably not as meant) or FAIL, and says how to fix what it
 * found; none changes anything.
 */

export type CheckStatus = "ok" | "warn" | "FAIL";

export interface CheckResult {
  check: string;
  status: CheckStatus;
  message: string;
  /** What to do about a warn or FAIL. */
  fix?: string;
}

/** The settings the checks read (plain values from the loaded configuration). */
export interface DoctorSettings {
  localDomain: string;
  webDomain: string;
  localHttps: boolean;
  baseUrl: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  ffmpegBinary: string;
  ffprobeBinary: string;
}

export interface DoctorOptions {
  /** The base URL to probe instead of the configured one (e.g. the server on loopback, behind no proxy). */
  url?: string;
  timeoutMs?: number;
}

const ok = (check: string, message: string): CheckResult => ({ check, status: "ok", message });
const warn = (check: string, message: string, fix: string): CheckResult => ({ check, status: "warn", message, fix });
const fail = (check: string, message: string, fix: string): CheckResult => ({ check, status: "FAIL", message, fix });
const why = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0];

/** Where the server is meant to be reached from: a public domain needs HTTPS and a real name. */
export function checkDomains(s: DoctorSettings): CheckResult[] {
  const out: CheckResult[] = [];
  if (isLocalHost(s.localDomain)) {
    out.push(
      warn(
        "domain",
        `LOCAL_DOMAIN is ${s.localDomain}: fine for trying Gannet, but no other server can reach it`,
        "set LOCAL_DOMAIN (and WEB_DOMAIN if the web address differs) to the public domain before the first account is created: it cannot change later",
      ),
    );
  } else if (!s.localHttps) {
    out.push(
      warn(
        "domain",
        `LOCAL_HTTPS is off for the public domain ${s.webDomain}: links and actor URIs say http://`,
        "unset LOCAL_HTTPS (it is on by default for public domains) and let the reverse proxy end TLS",
      ),
    );
  } else {
    out.push(ok("domain", `LOCAL_DOMAIN ${s.localDomain}, served at ${s.baseUrl}`));
  }
  return out;
}

export async function checkDatabase(s: DoctorSettings, timeoutMs = 10_000): Promise<CheckResult> {
  const name = "database";
  if (!s.databaseUrl && !existsSync(sqlitePath(s.dataDir))) {
    return fail(
      name,
      `no SQLite database at ${sqlitePath(s.dataDir)}`,
      "check DATA_DIR; start the server once to create the database, or restore a backup with gannet restore",
    );
  }
  const database = createDatabase({ dataDir: s.dataDir, databaseUrl: s.databaseUrl, pgPoolSize: 1 });
  try {
    // A firewalled database host drops packets rather than refusing: do not wait for TCP to give up.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const status = await Promise.race([migrationStatus(database.db as never), timeout]).finally(() =>
      clearTimeout(timer),
    );
    const where = s.databaseUrl ? "PostgreSQL" : `SQLite ${sqlitePath(s.dataDir)}`;
    if (!status.initialized) {
      return fail(name, `${where} is empty`, "start the server once (it creates the tables), or restore a backup");
    }
    if (status.unknown.length > 0) {
      return fail(
        name,
        `${where} has migrations this Gannet does not know (${status.unknown.join(", ")}): a newer Gannet wrote it`,
        "run the Gannet version that wrote the database (or newer); to go back, restore a backup taken before the upgrade",
      );
    }
    if (status.pending.length > 0) {
      return fail(
        name,
        `${where}: ${status.pending.length} migrations not applied yet (${status.pending.join(", ")})`,
        "start the server (migrations run at its start), then run gannet doctor again",
      );
    }
    return ok(name, `${where}: connected, ${status.applied.length} migrations applied, up to date`);
  } catch (e) {
    return fail(
      name,
      `cannot read the database: ${why(e)}`,
      s.databaseUrl
        ? "check DATABASE_URL (host, port, user, password, database) and that PostgreSQL is running"
        : "check that DATA_DIR is readable and writable by this user",
    );
  } finally {
    // Not awaited: a pool still trying to connect would hold the answer back.
    void database.close().catch(() => {});
  }
}

export async function checkRedis(s: DoctorSettings, timeoutMs: number): Promise<CheckResult | undefined> {
  if (!s.redisUrl) return undefined;
  const { Redis } = await import("ioredis");
  const redis = new Redis(s.redisUrl, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The rejection only says the connection closed; the error event says why (ECONNREFUSED, NOAUTH, ...).
  let cause: unknown;
  redis.on("error", (e) => {
    cause ??= e;
  });
  const shown = s.redisUrl.replace(/\/\/[^@/]*@/, "//***@");
  try {
    await redis.connect();
    const pong = await redis.ping();
    return pong === "PONG"
      ? ok("redis", `${shown} answers PING`)
      : fail("redis", `${shown} answered ${pong} to PING`, "check that REDIS_URL points at a Redis server");
  } catch (e) {
    return fail(
      "redis",
      `cannot reach ${shown}: ${why(cause ?? e)}`,
      "start Redis (systemctl start redis-server) or fix REDIS_URL (host, port, password); unset it to run without Redis",
    );
  } finally {
    redis.disconnect();
  }
}

/** A file written and removed: the one test that holds for root, ACLs and read-only mounts alike. */
async function writable(dir: string): Promise<string | undefined> {
  const probe = join(dir, `.gannet-doctor-${process.pid}`);
  try {
    await writeFile(probe, "");
    await rm(probe, { force: true });
    return undefined;
  } catch (e) {
    return why(e);
  }
}

export async function checkMedia(s: DoctorSettings): Promise<CheckResult> {
  const dir = localMediaDir(s.dataDir);
  const user = process.getuid?.() ?? "this user";
  const fix = `give the server's user the directory: chown -R <user> ${dir} && chmod u+rwx ${dir}`;
  if (!existsSync(dir)) {
    const problem = existsSync(s.dataDir) ? await writable(s.dataDir) : `${s.dataDir} does not exist`;
    return problem
      ? fail(
          "media",
          `${dir} does not exist and cannot be created: ${problem}`,
          `create ${s.dataDir} for the server's user`,
        )
      : ok("media", `${dir} will be created at the first upload`);
  }
  if (!(await stat(dir)).isDirectory()) {
    return fail(
      "media",
      `${dir} is not a directory`,
      `move it away; Gannet keeps uploaded files in the directory ${dir}`,
    );
  }
  const problem = await writable(dir);
  return problem
    ? fail("media", `${dir} is not writable by uid ${user}: ${problem}`, fix)
    : ok("media", `${dir} is writable`);
}

function version(binary: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, ["-version"], { timeout: timeoutMs }, (err, stdout) =>
      err ? reject(err) : resolve(stdout.split("\n")[0] ?? ""),
    );
  });
}

export async function checkFfmpeg(s: DoctorSettings, timeoutMs: number): Promise<CheckResult> {
  const found: string[] = [];
  for (const [setting, binary] of [
    ["FFMPEG_BINARY", s.ffmpegBinary],
    ["FFPROBE_BINARY", s.ffprobeBinary],
  ] as const) {
    try {
      found.push(await version(binary, timeoutMs));
    } catch (e) {
      return warn(
        "ffmpeg",
        `${binary} cannot run (${why(e)}): video and audio uploads are refused or left unprocessed`,
        `install ffmpeg (apt install ffmpeg), or set ${setting} to its path`,
      );
    }
  }
  return ok("ffmpeg", found[0] ?? s.ffmpegBinary);
}

/**
 * The public URL answers, and as this server: a proxy pointing at another site (or an old
 * server) answers too, so the instance's `uri` must be this LOCAL_DOMAIN.
 */
export async function checkPublicUrl(s: DoctorSettings, opts: DoctorOptions): Promise<CheckResult> {
  const base = (opts.url ?? s.baseUrl).replace(/\/+$/, "");
  const url = `${base}/api/v1/instance`;
  const proxyFix = `check DNS for ${s.webDomain}, that the reverse proxy runs and forwards to this Gannet, and its TLS certificate (see docs/operations.md)`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 5000), redirect: "manual" });
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : "";
    return fail("public url", `cannot reach ${url}: ${why(e)}${cause}`, `start the server; ${proxyFix}`);
  }
  let body: { uri?: unknown } | undefined;
  try {
    body = (await res.json()) as { uri?: unknown };
  } catch {
    body = undefined;
  }
  if (res.status !== 200 || !body) {
    return fail("public url", `${url} answered ${res.status}, not this server's instance description`, proxyFix);
  }
  if (body.uri !== s.localDomain) {
    return fail(
      "public url",
      `${url} is answered by another server (${String(body.uri)}), not this one (${s.localDomain})`,
      `make the reverse proxy for ${s.webDomain} forward to this Gannet (BIND and PORT), or fix LOCAL_DOMAIN`,
    );
  }
  return ok("public url", `${url} is this server`);
}

/** Every check but the settings' loading (the command does that, with the config module). */
export async function runChecks(s: DoctorSettings, opts: DoctorOptions = {}): Promise<CheckResult[]> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const out = checkDomains(s);
  out.push(await checkDatabase(s, Math.max(timeoutMs, 10_000)));
  const redis = await checkRedis(s, timeoutMs);
  if (redis) out.push(redis);
  out.push(await checkMedia(s));
  out.push(await checkFfmpeg(s, timeoutMs));
  out.push(await checkPublicUrl(s, opts));
  return out;
}
