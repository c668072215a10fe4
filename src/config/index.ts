import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { isLocalHost } from "../lib/domains.ts";
import type { GannetLogLevel } from "../lib/logging.ts";
import type { PasswordHashParams } from "../lib/passwords.ts";
import { ConfigError, type Env, read } from "./settings.ts";

export { ConfigError, type Env } from "./settings.ts";

export type RegistrationsMode = "open" | "approved" | "none";

export interface RateLimitConfig {
  enabled: boolean;
}

export interface LoadSheddingConfig {
  enabled: boolean;
  /** How long (ms) a turn of a saturated event loop serves requests before refusing the rest. */
  lagMs: number;
  /** Requests in flight past which new ones are refused; 0: no bound. */
  maxInFlight: number;
  retryAfterSeconds: number;
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

/**
 * GANNET_ROLE: `all` or a list of roles (`web,worker`). Roles split over processes need an event
 * bus that crosses them (Redis or PostgreSQL): in-process events would not reach another
 * process's streaming clients.
 */
function roles(env: Env, crossProcessBus: boolean): ProcessRoles {
  const names = read(env, "GANNET_ROLE");
  if (names.length === 1 && names[0] === "all") return { web: true, streaming: true, worker: true, scheduler: true };
  const r = {
    web: names.includes("web"),
    streaming: names.includes("web") || names.includes("streaming"),
    worker: names.includes("worker"),
    scheduler: names.includes("scheduler"),
  };
  if (!crossProcessBus && !(r.web && r.worker && r.scheduler)) {
    throw new ConfigError(
      `GANNET_ROLE=${env.GANNET_ROLE?.trim()} splits the server over processes, which needs REDIS_URL or DATABASE_URL (with SQLite alone, streaming events stay in one process)`,
    );
  }
  return r;
}

/** Which kinds of trends need a moderator's approval before they are shown (TRENDS_REVIEW_*). */
export interface TrendsConfig {
  enabled: boolean;
  review: { tags: boolean; statuses: boolean; links: boolean };
}

/** The translation backends configured (Mastodon's setting names); neither: translation is off. */
export interface TranslationConfig {
  deepl?: { apiKey: string; plan: "free" | "pro"; url?: string };
  libreTranslate?: { endpoint: string; apiKey?: string };
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
  /** PostgreSQL: seconds in-process caches may go without a change notice (0: never cache). */
  databaseCacheMaxAgeSeconds: number;
  secretKey: string;
  registrationsMode: RegistrationsMode;
  requireEmailConfirmation: boolean;
  localHttps: boolean;
  /** Public base URL, e.g. `https://example.com` or `http://localhost:3000`. */
  baseUrl: string;
  oauthPasswordGrant: boolean;
  /** argon2id cost of new password hashes (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_ITERATIONS). */
  passwordHash: PasswordHashParams;
  rateLimits: RateLimitConfig;
  trustedProxies: string[];
  /** Refusing requests while overloaded (LOAD_SHEDDING*; see http/middleware/overload.ts). */
  loadShedding: LoadSheddingConfig;
  /**
   * Inbox POSTs from one client IP whose signature failed, past which its inbox POSTs are
   * answered 429 for the rest of the window (INBOX_FAILURE_LIMIT, 0 for never; INBOX_FAILURE_WINDOW s).
   */
  inboxFailureLimit: number;
  /** Deliveries run at once per worker process, and to one server (DELIVERY_CONCURRENCY[_PER_SERVER]). */
  deliveryConcurrency: number;
  deliveryConcurrencyPerServer: number;
  /** Worker threads processing inbox POSTs, 0 for none (INBOX_THREADS; src/inbox-threads/). */
  inboxThreads: number;
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
  /** Days a locally suspended account's data is kept before it is deleted (SUSPENSION_PURGE_DELAY_DAYS). */
  suspensionPurgeDelayDays: number;
  /**
   * The ffmpeg and ffprobe commands (FFMPEG_BINARY, FFPROBE_BINARY, Mastodon's names): a path, or
   * a name looked up on the PATH. A command that is not there counts as not installed.
   */
  ffmpegBinary: string;
  ffprobeBinary: string;
  trends: TrendsConfig;
  translation: TranslationConfig;
  logLevel: GannetLogLevel;
  /** One log line per HTTP request (LOG_REQUESTS). */
  logRequests: boolean;
}

/** Both VAPID keys or neither: a lone key cannot sign or be verified. */
function vapidKeys(env: Env): { publicKey: string; privateKey: string } | undefined {
  const publicKey = read(env, "VAPID_PUBLIC_KEY");
  const privateKey = read(env, "VAPID_PRIVATE_KEY");
  if (publicKey === undefined && privateKey === undefined) return undefined;
  if (publicKey === undefined || privateKey === undefined) {
    throw new ConfigError("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together");
  }
  return { publicKey, privateKey };
}

function translationBackends(env: Env): TranslationConfig {
  const out: TranslationConfig = {};
  const deeplKey = read(env, "DEEPL_API_KEY");
  if (deeplKey !== undefined)
    out.deepl = { apiKey: deeplKey, plan: read(env, "DEEPL_PLAN"), url: read(env, "DEEPL_API_URL") };
  const libre = read(env, "LIBRE_TRANSLATE_ENDPOINT");
  if (libre !== undefined) out.libreTranslate = { endpoint: libre, apiKey: read(env, "LIBRE_TRANSLATE_API_KEY") };
  return out;
}

/**
 * Reads the configuration from an environment (`process.env` plus `.env`, merged by the caller),
 * each setting through the table in settings.ts; the defaults that depend on other settings are
 * worked out here. Pure apart from the secret key file: when SECRET_KEY is unset it is generated
 * once into DATA_DIR.
 */
export function loadConfig(env: Env, opts: { cwd?: string; createDataDir?: boolean } = {}): Config {
  const cwd = opts.cwd ?? process.cwd();
  const port = read(env, "PORT");
  const localDomain = read(env, "LOCAL_DOMAIN") ?? `localhost:${port}`;
  const webDomain = read(env, "WEB_DOMAIN") ?? localDomain;
  const bind = read(env, "BIND");
  const dataDirRaw = read(env, "DATA_DIR");
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const databaseUrl = read(env, "DATABASE_URL");
  const redisUrl = read(env, "REDIS_URL");
  const localHttps = read(env, "LOCAL_HTTPS") ?? !isLocalHost(webDomain);
  const registrationsMode = read(env, "REGISTRATIONS_MODE");

  if (opts.createDataDir !== false) mkdirSync(dataDir, { recursive: true });
  const secretKey = read(env, "SECRET_KEY") ?? readOrCreateSecret(dataDir);

  let smtp: SmtpConfig | undefined;
  const smtpServer = read(env, "SMTP_SERVER");
  if (smtpServer !== undefined) {
    smtp = {
      server: smtpServer,
      port: read(env, "SMTP_PORT"),
      login: read(env, "SMTP_LOGIN"),
      password: read(env, "SMTP_PASSWORD"),
      fromAddress: read(env, "SMTP_FROM_ADDRESS") ?? `notifications@${localDomain.replace(/:\d+$/, "")}`,
      secure: read(env, "SMTP_SSL"),
    };
  }

  const baseUrl = `${localHttps ? "https" : "http"}://${webDomain}`;

  return {
    localDomain,
    webDomain,
    port,
    bind,
    dataDir,
    databaseUrl,
    redisUrl,
    redisNamespace: read(env, "REDIS_NAMESPACE"),
    databaseCacheMaxAgeSeconds: read(env, "DATABASE_CACHE_MAX_AGE"),
    secretKey,
    registrationsMode,
    requireEmailConfirmation: read(env, "REQUIRE_EMAIL_CONFIRMATION"),
    localHttps,
    baseUrl,
    oauthPasswordGrant: read(env, "OAUTH_PASSWORD_GRANT"),
    passwordHash: {
      memoryCost: read(env, "PASSWORD_HASH_MEMORY_KIB"),
      timeCost: read(env, "PASSWORD_HASH_ITERATIONS"),
    },
    rateLimits: { enabled: read(env, "RATE_LIMITS") === "on" },
    trustedProxies: [...read(env, "TRUSTED_PROXY_IP")],
    loadShedding: {
      enabled: read(env, "LOAD_SHEDDING") === "on",
      lagMs: read(env, "LOAD_SHEDDING_LAG_MS"),
      maxInFlight: read(env, "LOAD_SHEDDING_MAX_IN_FLIGHT"),
      retryAfterSeconds: read(env, "LOAD_SHEDDING_RETRY_AFTER"),
    },
    inboxFailureLimit: read(env, "INBOX_FAILURE_LIMIT"),
    deliveryConcurrency: read(env, "DELIVERY_CONCURRENCY"),
    deliveryConcurrencyPerServer: read(env, "DELIVERY_CONCURRENCY_PER_SERVER"),
    inboxThreads: read(env, "INBOX_THREADS"),
    inboxFailureWindowSeconds: read(env, "INBOX_FAILURE_WINDOW"),
    allowedPrivateAddresses: [...read(env, "ALLOWED_PRIVATE_ADDRESSES")],
    limitedFederationMode: read(env, "LIMITED_FEDERATION_MODE"),
    smtp,
    siteTitle: read(env, "SITE_TITLE"),
    siteDescription: read(env, "SITE_DESCRIPTION"),
    siteContactEmail: read(env, "SITE_CONTACT_EMAIL"),
    singleUserMode: read(env, "SINGLE_USER_MODE"),
    defaultLocale: read(env, "DEFAULT_LOCALE"),
    streamingApiBaseUrl: read(env, "STREAMING_API_BASE_URL") ?? baseUrl.replace(/^http/, "ws"),
    sourceUrl: read(env, "SOURCE_BASE_URL"),
    vapid: vapidKeys(env),
    instanceStatsCacheSeconds: read(env, "INSTANCE_STATS_CACHE_SECONDS"),
    roles: roles(env, databaseUrl !== undefined || redisUrl !== undefined),
    mediaCacheRetentionDays: read(env, "MEDIA_CACHE_RETENTION_PERIOD"),
    suspensionPurgeDelayDays: read(env, "SUSPENSION_PURGE_DELAY_DAYS"),
    ffmpegBinary: read(env, "FFMPEG_BINARY"),
    ffprobeBinary: read(env, "FFPROBE_BINARY"),
    trends: {
      enabled: read(env, "TRENDS_ENABLED"),
      review: {
        tags: read(env, "TRENDS_REVIEW_TAGS"),
        statuses: read(env, "TRENDS_REVIEW_STATUSES"),
        links: read(env, "TRENDS_REVIEW_LINKS"),
      },
    },
    translation: translationBackends(env),
    logLevel: read(env, "LOG_LEVEL"),
    logRequests: read(env, "LOG_REQUESTS"),
  };
}

/** The file in DATA_DIR holding the generated secret key (when SECRET_KEY is unset). */
export const SECRET_KEY_FILE = "secret_key";

function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, SECRET_KEY_FILE);
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
/**
 * The environment of a tool Gannet runs (pg_dump, pg_restore): this process's own, with `extra`
 * (for example libpq's PG* variables) on top. The only other place that touches process.env.
 */
export function childEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

export function readEnvironment(cwd = process.cwd()): Env {
  const file = join(cwd, ".env");
  const fromFile = existsSync(file) ? parseDotEnv(readFileSync(file, "utf8")) : {};
  return { ...fromFile, ...process.env };
}
