import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type Background, startBackground } from "../../src/background.ts";
import { loadConfig } from "../../src/config/index.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import type { Account } from "../../src/db/repositories/accounts.ts";
import type { User } from "../../src/db/repositories/users.ts";
import { startHttpServer } from "../../src/server.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { cliApplication, createApplication, issueToken } from "../../src/services/oauth/tokens.ts";
import { copySqliteTemplate } from "./db-template.ts";
import { freePort } from "./ports.ts";
import { testActorKeys } from "./test-keys.ts";

// A busy read given parameters that are not its query's fails the test (query-shapes.ts).
process.env.GANNET_STRICT_SHAPES = "1";

export interface TestUser {
  account: Account;
  user: User;
  password: string;
  /** A user token with the scopes asked for (default: read write follow push profile). */
  token: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  method?: string;
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | string[]>;
  /** Sent as multipart/form-data. */
  multipart?: FormData;
  headers?: Record<string, string>;
}

export interface SettleOptions {
  names?: string[];
  skip?: string[];
  delayed?: boolean;
  allowDead?: boolean;
  timeoutMs?: number;
}

export interface TestServer {
  url: string;
  ctx: AppContext;
  /** An HTTP request to the server; the body is parsed as JSON when it is JSON. */
  request<T = any>(path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  createUser(
    username: string,
    opts?: { role?: string; confirmed?: boolean; approved?: boolean; scopes?: string },
  ): Promise<TestUser>;
  /** Records that `follower` follows `target` (the follow endpoints come with the social graph). */
  follow(follower: { account: Account }, target: { account: Account }): Promise<void>;
  /** An app token (client_credentials) with the given scopes. */
  appToken(scopes?: string): Promise<string>;
  /**
   * Waits until no background job is waiting, delayed or running, failing the test if one died
   * or if some are still pending after `timeoutMs` (10 s). `names` limits the wait to those jobs,
   * `skip` leaves some out; `delayed: false` does not wait for jobs delayed to a later time (a
   * poll's end); `allowDead: true` tolerates jobs that died (tests of failures).
   */
  settle(opts?: SettleOptions): Promise<void>;
  close(): Promise<void>;
}

async function dropSchema(databaseUrl: string | undefined, schema: string | undefined): Promise<void> {
  if (!databaseUrl || !schema) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * Tests never reach beyond loopback: a post linking to example.com queues a preview card fetch,
 * which is refused here before any DNS query (as a forbidden address would be).
 */
function loopbackOnly(inner: AppContext["guardedFetch"]): AppContext["guardedFetch"] {
  const refused = (url: string | URL) => {
    const host = new URL(url).hostname;
    return ["127.0.0.1", "[::1]", "localhost"].includes(host)
      ? undefined
      : new Error(`tests fetch only from loopback, not ${host}`);
  };
  const outer: AppContext["guardedFetch"] = (input, init) => {
    const error = refused(input);
    return error ? Promise.reject(error) : inner(input, init);
  };
  // Deliveries go through the client's lean POST (lib/net/guarded-post.ts): guarded the same way.
  const post = inner.post;
  if (post) {
    outer.post = (url, headers, body, options) => {
      const error = refused(url);
      return error ? Promise.reject(error) : post(url, headers, body, options);
    };
  }
  return outer;
}

/**
 * Starts a real Gannet server on an ephemeral loopback port with its own data directory and its
 * own database: a fresh SQLite file, or a fresh PostgreSQL schema when DATABASE_URL is set.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "gannet-test-"));
  const port = await freePort();
  const databaseUrl = process.env.DATABASE_URL;
  const config = loadConfig({
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "error",
    // Cheap password hashes: the suite makes hundreds of accounts (production keeps OWASP's cost).
    PASSWORD_HASH_MEMORY_KIB: "64",
    PASSWORD_HASH_ITERATIONS: "1",
    REGISTRATIONS_MODE: "open",
    // The test code shares the server's event loop (and the suite two cores), so a busy test
    // could look like overload; test/api/overload.test.ts turns it on where it is tested.
    LOAD_SHEDDING: "off",
    REDIS_URL: process.env.REDIS_URL,
    REDIS_NAMESPACE: `gannet-test-${process.pid}-${port}`,
    ...env,
  });
  const pgSchema = databaseUrl ? `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}` : undefined;
  let ctx: AppContext;
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let background: Background;
  try {
    // On SQLite, a copy of the run's migrated template when there is one (db-template.ts).
    if (!databaseUrl) await copySqliteTemplate(dataDir);
    ctx = await createContext(config, {
      pgSchema,
      // A test database need not survive a crash: commits skip waiting for the WAL's fsync.
      pgAsyncCommit: true,
      queue: { pollIntervalMs: 20, backoffBaseMs: 50 },
      // Accounts get RSA pairs generated once per machine, each to one account (test-keys.ts).
      actorKeys: testActorKeys,
    });
    ctx.guardedFetch = loopbackOnly(ctx.guardedFetch);
    server = await startHttpServer(ctx, port, "127.0.0.1", {
      overrideGlobalObjects: false,
      // Inbox threads (INBOX_THREADS) open the same database as the test's context.
      contextOptions: { pgSchema, pgAsyncCommit: true },
    });
    // Job workers and the scheduler run too, so features are tested end to end.
    background = await startBackground(ctx, { schedulerTickMs: 50 });
  } catch (e) {
    // Leave nothing behind when start-up fails.
    await dropSchema(databaseUrl, pgSchema);
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  const url = server.url;

  async function request<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) {
        for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
      }
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = p.toString();
    } else if (opts.multipart) {
      body = opts.multipart;
    }
    const res = await fetch(`${url}${path}`, {
      method: opts.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      redirect: "manual",
    });
    const type = res.headers.get("content-type") ?? "";
    const parsed = type.includes("json") ? await res.json() : await res.text();
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  return {
    url,
    ctx,
    request,
    async createUser(username, opts = {}) {
      const created = await createLocalAccount(ctx, {
        username,
        email: `${username}@example.com`,
        password: "correct horse battery",
        role: opts.role,
        confirmed: opts.confirmed ?? true,
        approved: opts.approved ?? true,
      });
      const app = await cliApplication(ctx);
      const scopes = (opts.scopes ?? "read write follow push profile").split(" ");
      const { accessToken } = await issueToken(ctx, { applicationId: app.id, userId: created.user.id, scopes });
      return { account: created.account, user: created.user, password: created.password, token: accessToken };
    },
    async follow(follower, target) {
      await ctx.repos.follows.insert({
        id: ctx.ids.next(),
        account_id: follower.account.id,
        target_account_id: target.account.id,
        created_at: new Date().toISOString(),
      });
    },
    async appToken(scopes = "read") {
      const { application } = await createApplication(ctx, {
        name: "test app",
        redirectUris: ["urn:ietf:wg:oauth:2.0:oob"],
        scopes: ["read", "write", "follow", "push"],
      });
      const { accessToken } = await issueToken(ctx, {
        applicationId: application.id,
        userId: null,
        scopes: scopes.split(" "),
      });
      return accessToken;
    },
    async settle(opts = {}) {
      const end = Date.now() + (opts.timeoutMs ?? 10_000);
      const counted = (c: { name: string; state: string; count: number }) =>
        c.count > 0 &&
        (opts.names === undefined || opts.names.includes(c.name)) &&
        !opts.skip?.includes(c.name) &&
        (opts.delayed !== false || c.state !== "delayed");
      for (;;) {
        const counts = (await ctx.queue.state()).counts.filter(counted);
        const dead = counts.filter((c) => c.state === "dead");
        if (dead.length > 0 && !opts.allowDead) throw new Error(`background jobs died: ${JSON.stringify(dead)}`);
        const pending = counts.filter((c) => c.state !== "dead");
        if (pending.length === 0) return;
        if (Date.now() > end) throw new Error(`background jobs still pending: ${JSON.stringify(pending)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await server.close();
      await background.stop();
      await ctx.close();
      await rm(dataDir, { recursive: true, force: true });
      await dropSchema(databaseUrl, pgSchema);
    },
  };
}
