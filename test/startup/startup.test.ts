import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  cleanEnv,
  createInstance,
  freePort,
  gannetOk,
  getJson,
  type Instance,
  MAIN,
  ROOT,
  runNode,
  startServer,
} from "../cli/harness.ts";

const onSqlite = !process.env.DATABASE_URL;

describe("node src/main.ts", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("starts on a fresh data directory, logs its URL, serves, and stops with exit 0 on SIGTERM", async () => {
    const server = await startServer({ env: inst.env, cwd: inst.dir });
    try {
      assert.equal(server.url, `http://127.0.0.1:${inst.port}`);
      assert.match(server.output(), new RegExp(`Gannet is listening on .*http://127\\.0\\.0\\.1:${inst.port}`));
      assert.match(server.output(), new RegExp(`public address http://localhost:${inst.port},`));
      const health = await getJson(`${server.url}/health`);
      assert.equal(health.status, 200);
      assert.equal(health.body, "OK");
      const instance = await getJson(`${server.url}/api/v1/instance`);
      assert.equal(instance.status, 200);
      assert.equal(instance.body.uri, `localhost:${inst.port}`);
      const secret = readFileSync(join(inst.dataDir, "secret_key"), "utf8").trim();
      assert.match(secret, /^[0-9a-f]{64,}$/);
      // Only the owner may read the key.
      assert.equal(statSync(join(inst.dataDir, "secret_key")).mode & 0o077, 0);
      assert.equal(existsSync(join(inst.dataDir, "gannet.sqlite3")), onSqlite);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    assert.match(server.output(), /Received 'SIGTERM', shutting down/);
  });

  it("keeps the secret key and the accounts made with the CLI across restarts", async () => {
    const secret = readFileSync(join(inst.dataDir, "secret_key"), "utf8");
    await gannetOk(inst, "accounts", "create", "alice", "--email", "alice@example.com", "--confirmed", "--approved");
    const token = (await gannetOk(inst, "tokens", "create", "alice", "--scopes", "read")).trim();
    for (let round = 0; round < 2; round++) {
      const server = await startServer({ env: inst.env, cwd: inst.dir });
      try {
        const me = await getJson(`${server.url}/api/v1/accounts/verify_credentials`, token);
        assert.equal(me.status, 200, `round ${round}: ${JSON.stringify(me.body)}`);
        assert.equal(me.body.username, "alice");
      } finally {
        assert.equal(await server.stop(), 0);
      }
    }
    assert.equal(readFileSync(join(inst.dataDir, "secret_key"), "utf8"), secret);
    assert.match(await gannetOk(inst, "accounts", "list"), /^alice\talice@example\.com\t/m);
  });

  it("creates ./data under the working directory when DATA_DIR is unset", async () => {
    const { DATA_DIR: _, ...env } = inst.env;
    const cwd = join(inst.dir, "fresh");
    await mkdir(cwd);
    const server = await startServer({ env, cwd });
    try {
      assert.ok(existsSync(join(cwd, "data", "secret_key")));
      assert.equal(existsSync(join(cwd, "data", "gannet.sqlite3")), onSqlite);
      const where = onSqlite ? `SQLite in ${join(cwd, "data")}` : "PostgreSQL";
      assert.ok(server.output().includes(`database ${where})`), server.output());
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it("reads a .env file in the working directory, the environment taking precedence", async () => {
    const cwd = join(inst.dir, "dotenv");
    await mkdir(cwd);
    const port = await freePort();
    await writeFile(
      join(cwd, ".env"),
      `# settings for this test\nPORT=${port}\nDATA_DIR=./from-dotenv\nLOCAL_DOMAIN="social.example"\nLOCAL_HTTPS=false\nREGISTRATIONS_MODE=maybe\n`,
    );
    const { DATA_DIR: _d, PORT: _p, ...env } = inst.env;
    const server = await startServer({ env: { ...env, REGISTRATIONS_MODE: "open" }, cwd });
    try {
      assert.equal(server.url, `http://127.0.0.1:${port}`);
      assert.match(server.output(), /public address http:\/\/social\.example,/);
      assert.ok(existsSync(join(cwd, "from-dotenv", "secret_key")));
      assert.equal((await getJson(`${server.url}/health`)).status, 200);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it("stops at once with one line naming the setting when a value is bad", async () => {
    const cases: [string, string][] = [
      ["PORT", "abc"],
      ["REGISTRATIONS_MODE", "maybe"],
      ["DATABASE_URL", "mysql://x"],
      ["LOCAL_HTTPS", "perhaps"],
      ["LOCAL_DOMAIN", "not a domain"],
      ["SECRET_KEY", "too-short"],
    ];
    await Promise.all(
      cases.map(async ([name, value]) => {
        const r = await runNode(MAIN, [], { env: { ...inst.env, [name]: value }, cwd: inst.dir });
        assert.notEqual(r.code, 0, name);
        assert.equal(r.code, 2, name);
        assert.equal(r.stdout, "", name);
        const lines = r.stderr.trimEnd().split("\n");
        assert.equal(lines.length, 1, `${name}: ${r.stderr}`);
        assert.match(lines[0], new RegExp(`^gannet: configuration error: ${name}\\b`));
      }),
    );
  });
});

describe("npm start", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("runs the server on the pinned Node from the package directory", async () => {
    // npm puts node_modules/.bin first on PATH, so `node src/main.ts` gets Node 24 whatever `node` is.
    const proc = spawn("npm", ["start", "--silent"], {
      cwd: ROOT,
      env: cleanEnv(inst.env),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not listen:\n${output}`)), 60_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes(`listening on http://127.0.0.1:${inst.port} `)) {
            clearTimeout(timer);
            resolve();
          }
        };
        proc.stdout.on("data", onData);
        proc.stderr.on("data", onData);
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`npm start exited with ${code}:\n${output}`));
        });
      });
      assert.equal((await getJson(`http://127.0.0.1:${inst.port}/health`)).status, 200);
      assert.ok(existsSync(join(inst.dataDir, "secret_key")));
    } finally {
      // The whole group: npm, the shell it starts, and the server.
      if (proc.pid !== undefined && proc.exitCode === null) process.kill(-proc.pid, "SIGTERM");
      await exited;
    }
  });
});
