import { parseRange } from "../lib/net/address-policy.ts";

/**
 * Every environment variable Gannet reads, declared once: its name, what values it takes (the
 * parser), its default, what it does, and the group it is listed under. `loadConfig` reads
 * through this table, `docs/configuration.md` is generated from it (docs.ts), and a test checks
 * that the code reads no variable missing here.
 */

/** A setting with a bad value: start-up stops with this one line. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export type Env = Record<string, string | undefined>;

export const GROUPS = [
  "Server",
  "Database",
  "Accounts",
  "Site",
  "Federation",
  "Media",
  "Mail",
  "Push",
  "Logging",
  "Development",
] as const;
export type Group = (typeof GROUPS)[number];

/** What values a setting takes: words for the docs, and the parser (given a trimmed, non-blank value). */
export interface SettingType<T> {
  doc: string;
  parse(value: string, name: string): T;
}

export interface Setting<T> {
  group: Group;
  type: SettingType<T>;
  /** The value when the variable is unset or blank. */
  default?: NoInfer<T>;
  /** The default in words, when it depends on other settings or is made at start. */
  defaultDoc?: string;
  /** One or two sentences for the operator. */
  description: string;
  /** Never printed (`gannet doctor` and logs show it as set or unset only). */
  secret?: boolean;
  /** Read where it is used rather than by `loadConfig` (then not part of `Config`). */
  readBy?: string;
}

// ---- types ----

const text: SettingType<string> = { doc: "text", parse: (v) => v };

const bool: SettingType<boolean> = {
  doc: "`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`)",
  parse(v, name) {
    const l = v.toLowerCase();
    if (["true", "1", "yes", "on"].includes(l)) return true;
    if (["false", "0", "no", "off"].includes(l)) return false;
    throw new ConfigError(`${name} must be true or false, got "${v}"`);
  },
};

function int(min: number, max: number): SettingType<number> {
  return {
    doc: `whole number, ${min} to ${max}`,
    parse(v, name) {
      if (!/^\d+$/.test(v)) throw new ConfigError(`${name} must be a whole number, got "${v}"`);
      const n = Number(v);
      if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
      return n;
    },
  };
}

function oneOf<const T extends string>(values: readonly T[]): SettingType<T> {
  return {
    doc: `one of ${values.map((v) => `\`${v}\``).join(", ")}`,
    parse(v, name) {
      if (!(values as readonly string[]).includes(v)) {
        throw new ConfigError(`${name} must be one of ${values.join(", ")}, got "${v}"`);
      }
      return v as T;
    },
  };
}

const DOMAIN_RE =
  /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*(:\d{1,5})?$/i;

const domain: SettingType<string> = {
  doc: "host name, with a port if not the default one",
  parse(v, name) {
    if (!DOMAIN_RE.test(v)) throw new ConfigError(`${name} must be a host name such as example.com, got "${v}"`);
    return v.toLowerCase();
  },
};

const locale: SettingType<string> = {
  doc: "language code (ISO 639-1, such as `en` or `pt-BR`)",
  parse(v, name) {
    if (!/^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(v))
      throw new ConfigError(`${name} must be a language code such as en, got "${v}"`);
    return v;
  },
};

function url(scheme: RegExp, doc: string): SettingType<string> {
  return {
    doc,
    parse(v, name) {
      if (!scheme.test(v) || !URL.canParse(v))
        throw new ConfigError(`${name} must be a URL starting with ${scheme.source.replace(/\\/g, "")}, got "${v}"`);
      return v.replace(/\/+$/, "");
    },
  };
}

/** A URL whose scheme must match; the message says what to do instead. */
function prefixed(scheme: RegExp, doc: string, message: string): SettingType<string> {
  return {
    doc,
    parse(v, name) {
      if (!scheme.test(v)) throw new ConfigError(`${name} ${message}`);
      return v;
    },
  };
}

function list(doc: string, check?: (entry: string, name: string) => void): SettingType<string[]> {
  return {
    doc,
    parse(v, name) {
      const entries = v.split(/[,\s]+/).filter(Boolean);
      if (check) for (const e of entries) check(e, name);
      return entries;
    },
  };
}

const bindAddress: SettingType<string> = {
  doc: "IP address (`0.0.0.0` or `::` for every interface)",
  parse(v, name) {
    if (!/^[0-9a-fA-F:.]+$|^localhost$/.test(v)) throw new ConfigError(`${name} must be an IP address, got "${v}"`);
    return v;
  },
};

const secretKey: SettingType<string> = {
  doc: "text of at least 32 characters",
  parse(v, name) {
    if (v.length < 32) throw new ConfigError(`${name} must be at least 32 characters long`);
    return v;
  },
};

export const ROLE_NAMES = ["web", "streaming", "worker", "scheduler"] as const;

/** The role names as given (`all` alone, or a list); whether they may be split is checked in loadConfig. */
const roleList: SettingType<string[]> = {
  doc: `\`all\`, or a comma-separated list of ${ROLE_NAMES.map((r) => `\`${r}\``).join(", ")}`,
  parse(v, name) {
    const names = v
      .toLowerCase()
      .split(/[,\s]+/)
      .filter(Boolean);
    if (names.length === 1 && names[0] === "all") return names;
    for (const n of names) {
      if (!(ROLE_NAMES as readonly string[]).includes(n)) {
        throw new ConfigError(`${name} must be "all" or a list of ${ROLE_NAMES.join(", ")}, got "${v}"`);
      }
    }
    return names;
  },
};

const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;

// ---- the table ----

function setting<T>(s: Setting<T> & { default: NoInfer<T> }): Setting<T> & { default: T };
function setting<T>(s: Setting<T>): Setting<T>;
function setting<T>(s: Setting<T>): Setting<T> {
  return s;
}

export const SETTINGS = {
  // Server
  PORT: setting({
    group: "Server",
    type: int(0, 65535),
    default: 3000,
    description: "The TCP port the HTTP server listens on (0: any free port).",
  }),
  BIND: setting({
    group: "Server",
    type: bindAddress,
    default: "127.0.0.1",
    description: "The address the HTTP server listens on. Keep the default behind a reverse proxy on the same machine.",
  }),
  LOCAL_DOMAIN: setting({
    group: "Server",
    type: domain,
    defaultDoc: "`localhost:PORT`",
    description:
      "The domain of the server's accounts (`@alice@LOCAL_DOMAIN`). It cannot change once other servers know the accounts.",
  }),
  WEB_DOMAIN: setting({
    group: "Server",
    type: domain,
    defaultDoc: "LOCAL_DOMAIN",
    description: "The host name the server is reached at, when it differs from LOCAL_DOMAIN (Mastodon's name).",
  }),
  LOCAL_HTTPS: setting({
    group: "Server",
    type: bool,
    defaultDoc: "`false` for `localhost`, `127.0.0.1` and `*.localhost`, else `true`",
    description:
      "Whether the public address is `https://`. Behind a reverse proxy that terminates TLS, leave it on: Gannet itself speaks plain HTTP.",
  }),
  DATA_DIR: setting({
    group: "Server",
    type: text,
    default: "./data",
    description:
      "Where the SQLite database, uploaded and cached media and the generated secret key live; relative to the working directory.",
  }),
  SECRET_KEY: setting({
    group: "Server",
    type: secretKey,
    defaultDoc: "generated once into `DATA_DIR/secret_key`",
    description:
      "Signs web sessions and seals the tokens kept for Web Push. Changing it signs everyone out of the web pages and silences existing push subscriptions.",
    secret: true,
  }),
  GANNET_ROLE: setting({
    group: "Server",
    type: roleList,
    default: ["all"],
    description:
      "What this process runs: `web` (all HTTP, streaming included), `streaming` (the streaming API alone), `worker` (background jobs), `scheduler` (periodic tasks). Splitting roles over processes needs REDIS_URL or DATABASE_URL.",
  }),
  TRUSTED_PROXY_IP: setting({
    group: "Server",
    type: list("comma-separated IP addresses or CIDR ranges", (entry, name) => {
      if (!parseRange(entry)) throw new ConfigError(`${name}: "${entry}" is not an IP address or CIDR range`);
    }),
    default: ["127.0.0.1", "::1"],
    description:
      "Peers whose `X-Forwarded-For` header is believed when finding a client's address (addresses or ranges such as `172.16.0.0/12`, for a proxy in a container network).",
  }),
  STREAMING_API_BASE_URL: setting({
    group: "Server",
    type: url(/^wss?:\/\//, "URL starting with `ws://` or `wss://`"),
    defaultDoc: "the public address with `ws`/`wss`",
    description: "Where clients open the streaming API, when it is served elsewhere than the public address.",
  }),
  RATE_LIMITS: setting({
    group: "Server",
    type: oneOf(["on", "off"]),
    default: "on",
    description: "Mastodon's API rate limits (requests from loopback are never limited).",
  }),
  // Database
  DATABASE_URL: setting({
    group: "Database",
    type: prefixed(
      /^postgres(ql)?:\/\//,
      "`postgres://user:password@host:port/database`",
      "must start with postgres:// (leave it unset for the embedded SQLite database)",
    ),
    defaultDoc: "unset: SQLite in DATA_DIR",
    description: "A PostgreSQL database to use instead of the embedded SQLite one.",
    secret: true,
  }),
  REDIS_URL: setting({
    group: "Database",
    type: prefixed(/^rediss?:\/\//, "`redis://host:port` or `rediss://`", "must start with redis:// or rediss://"),
    description:
      "A Redis server for the job queue, the rate limits and the event bus between processes. Without it they live in the database and in memory.",
    secret: true,
  }),
  REDIS_NAMESPACE: setting({
    group: "Database",
    type: text,
    default: "gannet",
    description: "Prefix of every Redis key, so several servers can share one Redis.",
  }),
  // Accounts
  REGISTRATIONS_MODE: setting({
    group: "Accounts",
    type: oneOf(["open", "approved", "none"]),
    default: "approved",
    description: "Who may sign up: anyone, anyone once a moderator approves, or nobody (accounts made with `gannet`).",
  }),
  REQUIRE_EMAIL_CONFIRMATION: setting({
    group: "Accounts",
    type: bool,
    default: true,
    description: "Whether a new account must confirm its e-mail address before signing in.",
  }),
  OAUTH_PASSWORD_GRANT: setting({
    group: "Accounts",
    type: bool,
    default: false,
    description:
      "Allows OAuth's password grant, in which an app is handed the user's password. Off, apps sign in through the browser.",
  }),
  SINGLE_USER_MODE: setting({
    group: "Accounts",
    type: bool,
    default: false,
    description: "A server for one person: sign-ups are closed whatever REGISTRATIONS_MODE says.",
  }),
  SUSPENSION_PURGE_DELAY_DAYS: setting({
    group: "Accounts",
    type: int(0, 36500),
    default: 30,
    description:
      "Days a suspended account's data is kept (so that `unsuspend` can restore it) before the scheduler deletes it for good. The name stays taken.",
  }),
  // Site
  SITE_TITLE: setting({
    group: "Site",
    type: text,
    default: "Gannet",
    description: "The server's name in the instance API and on its pages (the admin API can change it).",
  }),
  SITE_DESCRIPTION: setting({
    group: "Site",
    type: text,
    default: "A Gannet server on the fediverse",
    description: "The short description in the instance API (the admin API can change it).",
  }),
  SITE_CONTACT_EMAIL: setting({
    group: "Site",
    type: text,
    default: "",
    description: "The contact address in the instance API, also given to push services as the sender.",
  }),
  DEFAULT_LOCALE: setting({
    group: "Site",
    type: locale,
    default: "en",
    description: "The server's language, listed in the instance API.",
  }),
  SOURCE_BASE_URL: setting({
    group: "Site",
    type: url(/^https?:\/\//, "URL starting with `http://` or `https://`"),
    default: "https://github.com/gannet-social/gannet",
    description: "Where this server's source code is published (the AGPL asks for it when you change the code).",
  }),
  INSTANCE_STATS_CACHE_SECONDS: setting({
    group: "Site",
    type: int(0, 86400),
    default: 60,
    description: "Seconds the instance endpoints may reuse their user and status counts (0: counted each time).",
  }),
  // Federation
  LIMITED_FEDERATION_MODE: setting({
    group: "Federation",
    type: bool,
    default: false,
    description: "Federate only with the domains an administrator allowed (`gannet domains allow`).",
  }),
  ALLOWED_PRIVATE_ADDRESSES: setting({
    group: "Federation",
    type: list("comma-separated IP addresses or CIDR ranges", (entry, name) => {
      if (!parseRange(entry)) throw new ConfigError(`${name}: "${entry}" is not an IP address or CIDR range`);
    }),
    default: [],
    description:
      "Private or loopback addresses outgoing requests may reach (by default they are refused, so remote servers cannot make Gannet fetch from your network).",
  }),
  INBOX_FAILURE_LIMIT: setting({
    group: "Federation",
    type: int(0, 1_000_000),
    default: 50,
    description:
      "Inbox deliveries with a failed signature from one address, past which its deliveries are answered 429 for the rest of the window (0: never).",
  }),
  INBOX_FAILURE_WINDOW: setting({
    group: "Federation",
    type: int(1, 86_400),
    default: 60,
    description: "The window of INBOX_FAILURE_LIMIT, in seconds.",
  }),
  // Media
  MEDIA_CACHE_RETENTION_PERIOD: setting({
    group: "Media",
    type: int(1, 36500),
    defaultDoc: "unset: kept for good",
    description: "Days cached copies of remote media (attachments, avatars, headers, preview images) are kept.",
  }),
  FFMPEG_BINARY: setting({
    group: "Media",
    type: text,
    default: "ffmpeg",
    description:
      "The ffmpeg command (a path, or a name looked up on the PATH): turns videos and animated GIFs into MP4 and takes their previews. Without it videos are kept as uploaded.",
  }),
  FFPROBE_BINARY: setting({
    group: "Media",
    type: text,
    default: "ffprobe",
    description:
      "The ffprobe command (a path, or a name looked up on the PATH): reads the length and size of video and audio uploads and refuses those it cannot read. Without it they are kept as uploaded, unchecked.",
  }),
  // Mail
  SMTP_SERVER: setting({
    group: "Mail",
    type: text,
    defaultDoc: "unset: no e-mail is sent",
    description:
      "The SMTP server that sends e-mail (confirmations, password resets). The other SMTP_ settings apply only with it.",
  }),
  SMTP_PORT: setting({ group: "Mail", type: int(1, 65535), default: 587, description: "The SMTP server's port." }),
  SMTP_LOGIN: setting({ group: "Mail", type: text, description: "The user name to sign in to the SMTP server with." }),
  SMTP_PASSWORD: setting({
    group: "Mail",
    type: text,
    description: "The password to sign in to the SMTP server with.",
    secret: true,
  }),
  SMTP_FROM_ADDRESS: setting({
    group: "Mail",
    type: text,
    defaultDoc: "`notifications@` and LOCAL_DOMAIN without its port",
    description: "The sender of the e-mail Gannet sends.",
  }),
  SMTP_SSL: setting({
    group: "Mail",
    type: bool,
    default: false,
    description:
      "Whether the connection uses TLS from the start (usually port 465); otherwise STARTTLS is used when offered.",
  }),
  // Push
  VAPID_PUBLIC_KEY: setting({
    group: "Push",
    type: text,
    defaultDoc: "generated once and kept in the database",
    description: "The public half of the Web Push key pair. Set both halves or neither.",
  }),
  VAPID_PRIVATE_KEY: setting({
    group: "Push",
    type: text,
    defaultDoc: "generated once and kept in the database",
    description: "The private half of the Web Push key pair.",
    secret: true,
  }),
  // Logging
  LOG_LEVEL: setting({
    group: "Logging",
    type: oneOf(LOG_LEVELS),
    default: "info",
    description: "The lowest level logged. `debug` also shows Fedify's own messages and the stacks of retried jobs.",
  }),
  LOG_REQUESTS: setting({
    group: "Logging",
    type: bool,
    default: false,
    description:
      "Logs one line per HTTP request: method, path without its query, status, time and user (see logging.md).",
  }),
  // Development
  GANNET_STRICT_SHAPES: setting({
    group: "Development",
    type: oneOf(["1"]),
    defaultDoc: "unset",
    description:
      "Set by the tests: a cached query whose parameters do not match its shape fails instead of running uncached.",
    readBy: "src/db/repositories/query-shapes.ts",
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;

type Parsed<S> = S extends { type: SettingType<infer T> } ? T : never;
/** A setting's value: never undefined when the table gives a default. */
export type SettingValue<K extends SettingName> = (typeof SETTINGS)[K] extends { default: unknown }
  ? Parsed<(typeof SETTINGS)[K]>
  : Parsed<(typeof SETTINGS)[K]> | undefined;

/** Whether `name` is set to something other than blanks. */
export function isSet(env: Env, name: SettingName): boolean {
  return (env[name]?.trim() ?? "") !== "";
}

/** Reads one setting: blank counts as unset (then the table's default), a bad value throws a ConfigError. */
export function read<K extends SettingName>(env: Env, name: K): SettingValue<K> {
  const s: Setting<unknown> = SETTINGS[name];
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return s.default as SettingValue<K>;
  return s.type.parse(raw, name) as SettingValue<K>;
}
