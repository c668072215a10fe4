import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { parseRange } from "../lib/net/address-policy.ts";

export type RegistrationsMode = "open" | "approved" | "none";

export interface RateLimitConfig {
  enabled: boolean;
}

export interface SmtpConfig {
  server: string;
  port: number;
  login?: string;
  password?: string;
  fromAddress: string;
  secure: boolean;
}

/** What a process does (GANNET_ROLE); `all`, the default, is every one. */
export interface ProcessRoles {
  /** The whole HTTP application (API, OAuth, federation, pages, and the streaming API too). */
  web: boolean;
  /** The streaming API alone (WebSocket and server-sent events), when `web` is off. */
  streaming: boolean;
  /** Background job workers. */
  worker: boolean;
  /** Periodic tasks (each runs in one process at a time whatever the number of schedulers). */
  scheduler: boolean;
}

const ROLE_NAMES = ["web", "streaming", "worker", "scheduler"] as const;

/**
 * GANNET_ROLE: `all` or a list of roles (`web,worker`). Roles split over processes need an event
 * bus that crosses them (Redis or PostgreSQL): in-process events would not reach another
 * process's streaming clients.
 */
function roles(env: Env, crossProcessBus: boolean): ProcessRoles {
  const v = str(env, "GANNET_ROLE") ?? "all";
  const names = v
    .toLowerCase()
    .split(/[,\s]+/)
    .filter(Boolean);
  if (names.length === 1 && names[0] === "all") return { web: true, streaming: true, worker: true, scheduler: true };
  for (const n of names) {
    if (!(ROLE_NAMES as readonly string[]).includes(n)) {
      throw new ConfigError(`GANNET_ROLE must be "all" or a list of ${ROLE_NAMES.join(", ")}, got "${v}"`);
    }
  }
  const r = {
    web: names.includes("web"),
    streaming: names.includes("web") || names.includes("streaming"),
    worker: names.includes("worker"),
    scheduler: names.includes("scheduler"),
  };
  if (!crossProcessBus && !(r.web && r.worker && r.scheduler)) {
    throw new ConfigError(
      `GANNET_ROLE=${v} splits the server over processes, which needs REDIS_URL or DATABASE_URL (with SQLite alone, streaming events stay in one process)`,
    );
  }
  return r;
}

export interface Config {
  /** What this process runs (GANNET_ROLE). */
  roles: ProcessRoles;
  localDomain: string;
  webDomain: string;
  port: number;
  bind: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prefix of every Redis key (Mastodon's REDIS_NAMESPACE), so several servers can share one Redis. */
  redisNamespace: string;
  secretKey: string;
  registrationsMode: RegistrationsMode;
  requireEmailConfirmation: boolean;
  localHttps: boolean;
  /** Public base URL, e.g. `https://example.com` or `http://localhost:3000`. */
  baseUrl: string;
  oauthPasswordGrant: boolean;
  rateLimits: RateLimitConfig;
  trustedProxies: string[];
  /**
   * Inbox POSTs from one client IP whose signature failed, past which its inbox POSTs are
   * answered 429 for the rest of the window (INBOX_FAILURE_LIMIT, 0 for never; INBOX_FAILURE_WINDOW s).
   */
  inboxFailureLimit: number;
  inboxFailureWindowSeconds: number;
  allowedPrivateAddresses: string[];
  /** Federate only with the domains operators allow (LIMITED_FEDERATION_MODE, Mastodon's name). */
  limitedFederationMode: boolean;
  smtp?: SmtpConfig;
  siteTitle: string;
  siteDescription: string;
  siteContactEmail: string;
  singleUserMode: boolean;
  /** Language of the server (ISO 639-1), listed in instance `languages` (DEFAULT_LOCALE). */
  defaultLocale: string;
  /** Base URL of the streaming API, `ws://` or `wss://` (STREAMING_API_BASE_URL). */
  streamingApiBaseUrl: string;
  /** Where this server's source code is published (SOURCE_BASE_URL; the AGPL asks for it). */
  sourceUrl: string;
  /** VAPID key pair for Web Push from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY; generated and stored when unset. */
  vapid?: { publicKey: string; privateKey: string };
  /** Seconds the instance endpoints may reuse their usage numbers (INSTANCE_STATS_CACHE_SECONDS; 0: never). */
  instanceStatsCacheSeconds: number;
  /**
   * Days cached copies of remote media (attachments, avatars and headers, preview card images)
   * are kept (MEDIA_CACHE_RETENTION_PERIOD); undefined: kept for good.
   */
  mediaCacheRetentionDays?: number;
  /**
   * The ffmpeg and ffprobe commands (FFMPEG_BINARY, FFPROBE_BINARY, Mastodon's names): a path, or
   * a name looked up on the PATH. A command that is not there counts as not installed.
   */
  ffmpegBinary: string;
  ffprobeBinary: string;
  logLevel: "debug" | "info" | "warning" | "error";
}

/** A setting with a bad value: start-up stops with this one line. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  if (v === undefined) return undefined;
  const t = v.trim();
  return t === "" ? undefined : t;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = str(env, name);
  if (v === undefined) return fallback;
  const l = v.toLowerCase();
  if (["true", "1", "yes", "on"].includes(l)) return true;
  if (["false", "0", "no", "off"].includes(l)) return false;
  throw new ConfigError(`${name} must be true or false, got "${v}"`);
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new ConfigError(`${name} must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!(values as readonly string[]).includes(v)) {
    throw new ConfigError(`${name} must be one of ${values.join(", ")}, got "${v}"`);
  }
  return v as T;
}

const DOMAIN_RE =
  /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*(:\d{1,5})?$/i;

function domain(env: Env, name: string, fallback: string): string {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!DOMAIN_RE.test(v)) throw new ConfigError(`${name} must be a host name such as example.com, got "${v}"`);
  return v.toLowerCase();
}

function locale(env: Env, name: string, fallback: string): string {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!/^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(v))
    throw new ConfigError(`${name} must be a language code such as en, got "${v}"`);
  return v;
}

function url(env: Env, name: string, scheme: RegExp, fallback: string): string {
  const v = str(env, name);
  if (v === undefined) return fallback;
  if (!scheme.test(v) || !URL.canParse(v))
    throw new ConfigError(`${name} must be a URL starting with ${scheme.source.replace(/\\/g, "")}, got "${v}"`);
  return v.replace(/\/+$/, "");
}

/** Both VAPID keys or neither: a lone key cannot sign or be verified. */
function vapidKeys(env: Env): { publicKey: string; privateKey: string } | undefined {
  const publicKey = str(env, "VAPID_PUBLIC_KEY");
  const privateKey = str(env, "VAPID_PRIVATE_KEY");
  if (publicKey === undefined && privateKey === undefined) return undefined;
  if (publicKey === undefined || privateKey === undefined) {
    throw new ConfigError("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together");
  }
  return { publicKey, privateKey };
}

function isLocalHost(host: string): boolean {
  const h = host.replace(/:\d+$/, "");
  return h === "localhost" || h === "127.0.0.1" || h === "[::1]" || h.endsWith(".localhost");
}

/**
 * Reads the configuration from an environment (`process.env` plus `.env`, merged by the caller).
 * Pure apart from the secret key file: when SECRET_KEY is unset it is generated once into DATA_DIR.
 */
export function loadConfig(env: Env, opts: { cwd?: string; createDataDir?: boolean } = {}): Config {
  const cwd = opts.cwd ?? process.cwd();
  const port = int(env, "PORT", 3000, 0, 65535);
  const localDomain = domain(env, "LOCAL_DOMAIN", `localhost:${port}`);
  const webDomain = domain(env, "WEB_DOMAIN", localDomain);
  const bind = str(env, "BIND") ?? "127.0.0.1";
  if (!/^[0-9a-fA-F:.]+$|^localhost$/.test(bind)) throw new ConfigError(`BIND must be an IP address, got "${bind}"`);
  const dataDirRaw = str(env, "DATA_DIR") ?? "./data";
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const databaseUrl = str(env, "DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite database)`);
  }
  const redisUrl = str(env, "REDIS_URL");
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss://`);
  }
  const localHttps = bool(env, "LOCAL_HTTPS", !isLocalHost(webDomain));
  const registrationsMode = oneOf(env, "REGISTRATIONS_MODE", ["open", "approved", "none"] as const, "approved");

  if (opts.createDataDir !== false) mkdirSync(dataDir, { recursive: true });
  let secretKey = str(env, "SECRET_KEY");
  if (secretKey !== undefined && secretKey.length < 32) {
    throw new ConfigError("SECRET_KEY must be at least 32 characters long");
  }
  if (secretKey === undefined) secretKey = readOrCreateSecret(dataDir);

  let smtp: SmtpConfig | undefined;
  const smtpServer = str(env, "SMTP_SERVER");
  if (smtpServer !== undefined) {
    smtp = {
      server: smtpServer,
      port: int(env, "SMTP_PORT", 587, 1, 65535),
      login: str(env, "SMTP_LOGIN"),
      password: str(env, "SMTP_PASSWORD"),
      fromAddress: str(env, "SMTP_FROM_ADDRESS") ?? `notifications@${localDomain.replace(/:\d+$/, "")}`,
      secure: bool(env, "SMTP_SSL", false),
    };
  }

  const trusted = (str(env, "TRUSTED_PROXY_IP") ?? "127.0.0.1,::1").split(/[,\s]+/).filter(Boolean);
  const allowedPrivate = (str(env, "ALLOWED_PRIVATE_ADDRESSES") ?? "").split(/[,\s]+/).filter(Boolean);
  for (const entry of allowedPrivate) {
    if (!parseRange(entry))
      throw new ConfigError(`ALLOWED_PRIVATE_ADDRESSES: "${entry}" is not an IP address or CIDR range`);
  }
  const rateLimits = oneOf(env, "RATE_LIMITS", ["on", "off"] as const, "on");
  const baseUrl = `${localHttps ? "https" : "http"}://${webDomain}`;

  return {
    localDomain,
    webDomain,
    port,
    bind,
    dataDir,
    databaseUrl,
    redisUrl,
    redisNamespace: str(env, "REDIS_NAMESPACE") ?? "gannet",
    secretKey,
    registrationsMode,
    requireEmailConfirmation: bool(env, "REQUIRE_EMAIL_CONFIRMATION", true),
    localHttps,
    baseUrl,
    oauthPasswordGrant: bool(env, "OAUTH_PASSWORD_GRANT", false),
    rateLimits: { enabled: rateLimits === "on" },
    trustedProxies: trusted,
    inboxFailureLimit: int(env, "INBOX_FAILURE_LIMIT", 50, 0, 1_000_000),
    inboxFailureWindowSeconds: int(env, "INBOX_FAILURE_WINDOW", 60, 1, 86_400),
    allowedPrivateAddresses: allowedPrivate,
    limitedFederationMode: bool(env, "LIMITED_FEDERATION_MODE", false),
    smtp,
    siteTitle: str(env, "SITE_TITLE") ?? "Gannet",
    siteDescription: str(env, "SITE_DESCRIPTION") ?? "A Gannet server on the fediverse",
    siteContactEmail: str(env, "SITE_CONTACT_EMAIL") ?? "",
    singleUserMode: bool(env, "SINGLE_USER_MODE", false),
    defaultLocale: locale(env, "DEFAULT_LOCALE", "en"),
    streamingApiBaseUrl: url(env, "STREAMING_API_BASE_URL", /^wss?:\/\//, baseUrl.replace(/^http/, "ws")),
    sourceUrl: url(env, "SOURCE_BASE_URL", /^https?:\/\//, "https://github.com/gannet-social/gannet"),
    vapid: vapidKeys(env),
    instanceStatsCacheSeconds: int(env, "INSTANCE_STATS_CACHE_SECONDS", 60, 0, 86400),
    roles: roles(env, databaseUrl !== undefined || redisUrl !== undefined),
    mediaCacheRetentionDays:
      str(env, "MEDIA_CACHE_RETENTION_PERIOD") === undefined
        ? undefined
        : int(env, "MEDIA_CACHE_RETENTION_PERIOD", 0, 1, 36500),
    ffmpegBinary: str(env, "FFMPEG_BINARY") ?? "ffmpeg",
    ffprobeBinary: str(env, "FFPROBE_BINARY") ?? "ffprobe",
    logLevel: oneOf(env, "LOG_LEVEL", ["debug", "info", "warning", "error"] as const, "info"),
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "secret_key");
  if (existsSync(file)) {
    const s = readFileSync(file, "utf8").trim();
    if (s.length >= 32) return s;
  }
  const s = randomBytes(48).toString("hex");
  writeFileSync(file, `${s}\n`, { mode: 0o600 });
  return s;
}

/** Parses a `.env` file's text (KEY=value lines, # comments, optional quotes). */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    // A quoted value may be followed by a comment: `TITLE="My site" # shown on the about page`.
    const quoted = /^(["'])(.*?)\1(?:\s+#.*)?$/.exec(m[2]);
    out[m[1]] = quoted ? quoted[2] : m[2].replace(/\s+#.*$/, "");
  }
  return out;
}

/** The process environment with `.env` values filled in where the environment has none. */
export function readEnvironment(cwd = process.cwd()): Env {
  const file = join(cwd, ".env");
  const fromFile = existsSync(file) ? parseDotEnv(readFileSync(file, "utf8")) : {};
  return { ...fromFile, ...process.env };
}
