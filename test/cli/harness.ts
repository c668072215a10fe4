import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { loadConfig } from "../../src/config/index.ts";
import { SETTINGS } from "../../src/config/settings.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { freePort } from "../helpers/ports.ts";
import { testActorKeys } from "../helpers/test-keys.ts";

/**
 * Runs the real `gannet` command and the real server as child processes on a temporary data
 * directory: the CLI and the server then share a database exactly as they do for an operator.
 */

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The pinned Node 24 (the machine's `node` is older and cannot run the sources). */
export const NODE = join(ROOT, "node_modules", ".bin", "node");
export const CLI = join(ROOT, "src", "cli", "main.ts");
export const MAIN = join(ROOT, "src", "main.ts");

/**
 * Settings the runner's own environment must not leak into a child: every one of the settings
 * table but the test switches (GANNET_STRICT_SHAPES, which the helpers set on purpose), and
 * Node's own.
 */
const GANNET_SETTINGS = [
  ...Object.entries(SETTINGS)
    .filter(([, s]) => s.group !== "Development")
    .map(([name]) => name),
  "NODE_TEST_CONTEXT",
  "NODE_OPTIONS",
];

export { freePort };

export type Env = Record<string, string>;

/** The runner's environment without any Gannet setting, plus `extra`. */
export function cleanEnv(extra: Env = {}): Env {
  const env: Env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !GANNET_SETTINGS.includes(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

export interface Instance {
  /** A temporary directory: the children's working directory (no stray `.env`). */
  dir: string;
  dataDir: string;
  port: number;
  /** DATA_DIR, PORT and, on PostgreSQL, a DATABASE_URL whose search_path is this instance's own schema. */
  env: Env;
  /** Opens the instance's database in this process (to check what commands did). */
  openContext(): Promise<AppContext>;
  cleanup(): Promise<void>;
}

/** A fresh data directory, port and (on PostgreSQL) schema. */
export async function createInstance(extra: Env = {}): Promise<Instance> {
  const dir = await mkdtemp(join(tmpdir(), "gannet-cli-"));
  const dataDir = join(dir, "data");
  const port = await freePort();
  // Cheap password hashes, as test servers make them (server.ts).
  const env: Env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: "info",
    PASSWORD_HASH_MEMORY_KIB: "64",
    PASSWORD_HASH_ITERATIONS: "1",
    ...extra,
  };
  const baseUrl = process.env.DATABASE_URL;
  let schema: string | undefined;
  if (baseUrl) {
    schema = `cli_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await withPg(baseUrl, (c) => c.query(`CREATE SCHEMA ${schema}`));
    const sep = baseUrl.includes("?") ? "&" : "?";
    // As test servers do (server.ts): a test database's commits need not wait for the disk.
    const options = `-c search_path=${schema} -c synchronous_commit=off`;
    env.DATABASE_URL = `${baseUrl}${sep}options=${encodeURIComponent(options)}`;
  }
  if (process.env.REDIS_URL) {
    // Exercised when the suite runs with Redis (CI's PostgreSQL pass): commands must still exit promptly.
    env.REDIS_URL = process.env.REDIS_URL;
    env.REDIS_NAMESPACE = `cli_${process.pid}_${port}`;
  }
  return {
    dir,
    dataDir,
    port,
    env,
    // Accounts made in-process take pooled keys as test servers' do; the commands make their own.
    openContext: () =>
      createContext(loadConfig({ ...env, LOG_LEVEL: "error" }, { cwd: dir }), { actorKeys: testActorKeys }),
    async cleanup() {
      await rm(dir, { recursive: true, force: true });
      if (baseUrl && schema) await withPg(baseUrl, (c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
}

async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs `statement` (with `$1`-style parameters) on an instance's database, its SQLite file or its
 * PostgreSQL schema, as a tool outside the server would; answers the rows.
 */
export async function queryInstance(
  inst: Instance,
  statement: string,
  params: string[] = [],
): Promise<Record<string, unknown>[]> {
  if (inst.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: inst.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(statement, params)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new DatabaseSync(join(inst.dataDir, "gannet.sqlite3"));
  try {
    return db.prepare(statement.replace(/\$\d+/g, "?")).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node script ...args` to completion. */
export function runNode(script: string, args: string[], opts: { env: Env; cwd: string }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      NODE,
      [script, ...args],
      { env: cleanEnv(opts.env), cwd: opts.cwd, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== "number") return reject(err);
        resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** Runs `gannet ...args` against an instance. */
export function gannet(inst: Instance, ...args: string[]): Promise<RunResult> {
  return runNode(CLI, args, { env: inst.env, cwd: inst.dir });
}

/** `gannet ...` that must succeed; its stdout. */
export async function gannetOk(inst: Instance, ...args: string[]): Promise<string> {
  const r = await gannet(inst, ...args);
  if (r.code !== 0) throw new Error(`gannet ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

export interface ServerProcess {
  proc: ChildProcess;
  /** The URL the log line announced ("" for a process without HTTP: a worker or scheduler alone). */
  url: string;
  /** stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the server (the sources, or `opts.main`, e.g. a build's `main.js`) and waits until it
 * listens, or (a process without the web and streaming roles) until it says it is running.
 */
export async function startServer(opts: {
  env: Env;
  cwd: string;
  main?: string;
  /** How long to wait for the log line (30 s). */
  limitMs?: number;
}): Promise<ServerProcess> {
  const proc = spawn(NODE, [opts.main ?? MAIN], {
    env: cleanEnv(opts.env),
    cwd: opts.cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), opts.limitMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on '?(http:\/\/[^\s']+)|Gannet is running \(/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ?? "");
      }
    };
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    proc,
    url,
    output: () => output,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      return exited;
    },
  };
}

/** GET with a bearer token; the JSON body (or text). */
export async function getJson(url: string, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const type = res.headers.get("content-type") ?? "";
  return { status: res.status, body: type.includes("json") ? await res.json() : await res.text() };
}
