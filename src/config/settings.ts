import { parseRange } from "../lib/net/address-policy.ts";

/**
 * Every environment variable Gannet reads, declared once: its name, what values it takes (the
 * parser), its default, what it does, and the group it is listed under. `loadConfig` reads
 * through this table, `docs/configuration.md` is generated from it (docs.ts), and a test checks
 * that the code reads no variable missing here.
 */

import {
  bindAddress,
  bool,
  ConfigError,
  domain,
  type Env,
  int,
  LOG_LEVELS,
  list,
  locale,
  oneOf,
  prefixed,
  roleList,
  type Setting,
  type SettingType,
  secretKey,
  text,
  url,
} from "./setting-types.ts";

export {
  ConfigError,
  type Env,
  GROUPS,
  type Group,
  ROLE_NAMES,
  type Setting,
  type SettingType,
} from "./setting-types.ts";

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
  LOAD_SHEDDING: setting({
    group: "Server",
    type: oneOf(["on", "off"]),
    default: "on",
    description:
      "Refuses requests at once with 503 and `Retry-After` while the server is overloaded (its event loop saturated and the current turn past LOAD_SHEDDING_LAG_MS, or LOAD_SHEDDING_MAX_IN_FLIGHT requests at once), so it keeps serving what it can instead of answering everything late. The refusal comes before routing and authentication, from pre-built bytes; a new connection whose request asks to close it after the answer is refused before the HTTP parser. `/health` and WebSocket connections are never refused.",
  }),
  LOAD_SHEDDING_LAG_MS: setting({
    group: "Server",
    type: int(1, 60_000),
    default: 100,
    description:
      "How long (in ms) the current turn of a saturated event loop (at least 90% busy over about half a second) may run serving requests before the rest it reads are refused: about the longest a request waits behind others before being served or refused.",
  }),
  LOAD_SHEDDING_MAX_IN_FLIGHT: setting({
    group: "Server",
    type: int(0, 1_000_000),
    default: 1000,
    description: "Requests being handled at once past which new ones are refused (0: no bound).",
  }),
  LOAD_SHEDDING_RETRY_AFTER: setting({
    group: "Server",
    type: int(1, 3600),
    default: 2,
    description: "The `Retry-After` (seconds) of a refusal for overload.",
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
  DATABASE_CACHE_MAX_AGE: setting({
    group: "Database",
    type: int(0, 3600),
    default: 30,
    description:
      "On PostgreSQL, the longest a process keeps what it read (tokens, rendered posts' parts, feed pages) without a change notice from the process that changed it, in seconds: the bound for writes that bypass Gannet (an operator's SQL). 0 keeps nothing.",
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
  PASSWORD_HASH_MEMORY_KIB: setting({
    group: "Accounts",
    type: int(8, 4_194_304),
    default: 19_456,
    description:
      "Memory (KiB) each argon2id password hash takes. The default is OWASP's recommended minimum: lower values make stolen hashes cheaper to crack, so only tests lower it. Existing hashes keep the parameters they were made with.",
  }),
  PASSWORD_HASH_ITERATIONS: setting({
    group: "Accounts",
    type: int(1, 100),
    default: 2,
    description:
      "Passes over that memory per argon2id password hash (with the default memory, 2 is OWASP's minimum). As for PASSWORD_HASH_MEMORY_KIB, only tests lower it.",
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
  // Discovery
  TRENDS_ENABLED: setting({
    group: "Discovery",
    type: bool,
    default: true,
    description:
      "Scores trending hashtags, posts and links and serves them at `/api/v1/trends` (false: the lists are empty).",
  }),
  TRENDS_REVIEW_TAGS: setting({
    group: "Discovery",
    type: bool,
    default: true,
    description: "A hashtag trends publicly only once a moderator has approved it (false: every hashtag may trend).",
  }),
  TRENDS_REVIEW_STATUSES: setting({
    group: "Discovery",
    type: bool,
    default: true,
    description: "A post trends publicly only once a moderator has approved it (false: every public post may trend).",
  }),
  TRENDS_REVIEW_LINKS: setting({
    group: "Discovery",
    type: bool,
    default: true,
    description:
      "A link trends publicly only once a moderator has approved it or its publisher (false: every link may trend).",
  }),
  LIBRE_TRANSLATE_ENDPOINT: setting({
    group: "Discovery",
    type: url(/^https?:\/\//, "URL starting with `http://` or `https://`"),
    defaultDoc: "unset",
    description: "The address of a LibreTranslate server: turns translation of posts on.",
  }),
  LIBRE_TRANSLATE_API_KEY: setting({
    group: "Discovery",
    type: text,
    defaultDoc: "unset",
    description: "The API key LibreTranslate asks for, if it asks for one.",
    secret: true,
  }),
  DEEPL_API_KEY: setting({
    group: "Discovery",
    type: text,
    defaultDoc: "unset",
    description:
      "A DeepL API key: turns translation of posts on through DeepL (used before LibreTranslate when both are set).",
    secret: true,
  }),
  DEEPL_PLAN: setting({
    group: "Discovery",
    type: oneOf(["free", "pro"]),
    default: "free",
    description: "The DeepL plan of the key: `free` uses api-free.deepl.com, `pro` api.deepl.com.",
  }),
  DEEPL_API_URL: setting({
    group: "Discovery",
    type: url(/^https?:\/\//, "URL starting with `http://` or `https://`"),
    defaultDoc: "given by DEEPL_PLAN",
    description: "Another address for DeepL's API (a proxy, or a test server), instead of the plan's.",
  }),
  // Federation
  LIMITED_FEDERATION_MODE: setting({
    group: "Federation",
    type: bool,
    default: false,
    description: "Federate only with the domains an administrator allowed (`gannet domains allow`).",
  }),
  DELIVERY_CONCURRENCY: setting({
    group: "Federation",
    type: int(1, 10_000),
    default: 64,
    description:
      "Deliveries to remote inboxes run at once by each worker process, in a pool of their own beside the other jobs (they mostly wait on the network).",
  }),
  DELIVERY_CONCURRENCY_PER_SERVER: setting({
    group: "Federation",
    type: int(1, 10_000),
    default: 4,
    description:
      "Deliveries to one remote server run at once by each worker process, so that a slow or unreachable server holds a few of the DELIVERY_CONCURRENCY slots, never all.",
  }),
  INBOX_THREADS: setting({
    group: "Federation",
    type: int(0, 16),
    default: 0,
    description:
      "Worker threads that process inbox POSTs, each with its own database connection and federation object (the main thread answers the cheap refusals and hands the rest over); 0 processes them on the main thread. Not with the streaming role alone.",
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
