import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError, loadConfig, parseDotEnv, readEnvironment } from "../../src/config/index.ts";

describe("loadConfig", () => {
  let dir: string;
  let n = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "gannet-config-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A fresh DATA_DIR for each call, so secret keys never leak between cases. */
  const fresh = () => join(dir, `data-${++n}`);
  const load = (env: Record<string, string | undefined>) => loadConfig({ DATA_DIR: fresh(), ...env }, { cwd: dir });

  it("has Mastodon-like defaults for a local server", () => {
    const c = load({});
    assert.equal(c.port, 3000);
    assert.equal(c.bind, "127.0.0.1");
    assert.equal(c.localDomain, "localhost:3000");
    assert.equal(c.webDomain, "localhost:3000");
    assert.equal(c.localHttps, false);
    assert.equal(c.baseUrl, "http://localhost:3000");
    assert.equal(c.registrationsMode, "approved");
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.redisUrl, undefined);
    assert.equal(c.smtp, undefined);
  });

  it("derives LOCAL_DOMAIN from PORT", () => {
    const c = load({ PORT: "8080" });
    assert.equal(c.localDomain, "localhost:8080");
    assert.equal(c.baseUrl, "http://localhost:8080");
  });

  it("defaults LOCAL_HTTPS to false for localhost and 127.0.0.1, true for real domains", () => {
    assert.equal(load({ LOCAL_DOMAIN: "localhost" }).localHttps, false);
    assert.equal(load({ LOCAL_DOMAIN: "127.0.0.1:3000" }).localHttps, false);
    assert.equal(load({ LOCAL_DOMAIN: "gannet.localhost" }).localHttps, false);
    const c = load({ LOCAL_DOMAIN: "Example.COM" });
    assert.equal(c.localDomain, "example.com");
    assert.equal(c.localHttps, true);
    assert.equal(c.baseUrl, "https://example.com");
  });

  it("builds the base URL from WEB_DOMAIN and LOCAL_HTTPS", () => {
    const c = load({ LOCAL_DOMAIN: "example.com", WEB_DOMAIN: "social.example.com" });
    assert.equal(c.localDomain, "example.com");
    assert.equal(c.webDomain, "social.example.com");
    assert.equal(c.baseUrl, "https://social.example.com");
    assert.equal(load({ LOCAL_DOMAIN: "example.com", LOCAL_HTTPS: "false" }).baseUrl, "http://example.com");
    assert.equal(load({ LOCAL_DOMAIN: "localhost:4000", LOCAL_HTTPS: "true" }).baseUrl, "https://localhost:4000");
  });

  it("resolves a relative DATA_DIR against the working directory, ./data by default", () => {
    const sub = join(dir, "cwd");
    assert.equal(loadConfig({}, { cwd: sub }).dataDir, join(sub, "data"));
    assert.equal(loadConfig({ DATA_DIR: "store" }, { cwd: sub }).dataDir, join(sub, "store"));
  });

  it("treats blank values as unset", () => {
    const c = load({ PORT: "", LOCAL_DOMAIN: "  ", REGISTRATIONS_MODE: "" });
    assert.equal(c.port, 3000);
    assert.equal(c.localDomain, "localhost:3000");
    assert.equal(c.registrationsMode, "approved");
  });

  it("accepts the other registration modes and a PostgreSQL or Redis URL", () => {
    assert.equal(load({ REGISTRATIONS_MODE: "open" }).registrationsMode, "open");
    assert.equal(load({ REGISTRATIONS_MODE: "none" }).registrationsMode, "none");
    assert.equal(load({ DATABASE_URL: "postgresql://u@h/db" }).databaseUrl, "postgresql://u@h/db");
    assert.equal(load({ REDIS_URL: "redis://127.0.0.1:6379" }).redisUrl, "redis://127.0.0.1:6379");
  });

  it("reads SMTP_* when SMTP_SERVER is set", () => {
    const c = load({ LOCAL_DOMAIN: "example.com", SMTP_SERVER: "mail.example.com", SMTP_LOGIN: "me" });
    assert.equal(c.smtp?.server, "mail.example.com");
    assert.equal(c.smtp?.port, 587);
    assert.equal(c.smtp?.login, "me");
    assert.equal(c.smtp?.fromAddress, "notifications@example.com");
    assert.equal(load({ SMTP_SERVER: "m", SMTP_PORT: "465", SMTP_SSL: "true" }).smtp?.secure, true);
  });

  it("generates the secret key once into DATA_DIR and reuses it", () => {
    const dataDir = fresh();
    const first = loadConfig({ DATA_DIR: dataDir }).secretKey;
    assert.ok(first.length >= 32);
    const file = join(dataDir, "secret_key");
    assert.equal(readFileSync(file, "utf8").trim(), first);
    assert.equal(statSync(file).mode & 0o077, 0);
    assert.equal(loadConfig({ DATA_DIR: dataDir }).secretKey, first);
    assert.notEqual(load({}).secretKey, first);
  });

  it("uses SECRET_KEY when set and writes no file", () => {
    const dataDir = fresh();
    const key = "k".repeat(40);
    assert.equal(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: key }).secretKey, key);
    assert.throws(() => statSync(join(dataDir, "secret_key")), { code: "ENOENT" });
  });

  it("reads GANNET_ROLE: all by default, lists of roles, and splits only with a bus that crosses processes", () => {
    const all = { web: true, streaming: true, worker: true, scheduler: true };
    assert.deepEqual(load({}).roles, all);
    assert.deepEqual(load({ GANNET_ROLE: "all" }).roles, all);
    const pg = { DATABASE_URL: "postgres://x@127.0.0.1/db" };
    assert.deepEqual(load({ ...pg, GANNET_ROLE: "streaming" }).roles, {
      web: false,
      streaming: true,
      worker: false,
      scheduler: false,
    });
    // `web` serves the streaming API too.
    assert.deepEqual(load({ ...pg, GANNET_ROLE: "web, worker" }).roles, {
      web: true,
      streaming: true,
      worker: true,
      scheduler: false,
    });
    assert.deepEqual(load({ REDIS_URL: "redis://127.0.0.1:6379", GANNET_ROLE: "worker,scheduler" }).roles, {
      web: false,
      streaming: false,
      worker: true,
      scheduler: true,
    });
    // SQLite alone: the in-process bus cannot reach another process's streaming clients.
    assert.deepEqual(load({ GANNET_ROLE: "web,worker,scheduler" }).roles, all);
    for (const bad of ["streaming", "web", "worker,scheduler"]) {
      assert.throws(
        () => load({ GANNET_ROLE: bad }),
        (e: unknown) => e instanceof ConfigError && /needs REDIS_URL or DATABASE_URL/.test(e.message),
      );
    }
    for (const bad of ["everything", "web,api", "all,web"]) {
      assert.throws(
        () => load({ ...pg, GANNET_ROLE: bad }),
        (e: unknown) => e instanceof ConfigError && e.message.startsWith("GANNET_ROLE must be"),
      );
    }
  });

  it("rejects bad values with a ConfigError naming the setting", () => {
    const bad: [string, string][] = [
      ["PORT", "abc"],
      ["PORT", "70000"],
      ["PORT", "-1"],
      ["LOCAL_DOMAIN", "not a domain"],
      ["WEB_DOMAIN", "https://example.com"],
      ["BIND", "anywhere"],
      ["DATABASE_URL", "mysql://x"],
      ["REDIS_URL", "memcached://x"],
      ["REGISTRATIONS_MODE", "maybe"],
      ["LOCAL_HTTPS", "perhaps"],
      ["SECRET_KEY", "short"],
      ["SMTP_PORT", "smtp"],
    ];
    for (const [name, value] of bad) {
      const env: Record<string, string> = { [name]: value };
      if (name === "SMTP_PORT") env.SMTP_SERVER = "mail.example.com";
      assert.throws(
        () => load(env),
        (e: unknown) => e instanceof ConfigError && e.message.startsWith(name) && !e.message.includes("\n"),
        `${name}=${value}`,
      );
    }
  });
});

describe("parseDotEnv", () => {
  it("reads KEY=value lines, skipping comments and blank lines", () => {
    assert.deepEqual(parseDotEnv("# comment\n\nPORT=4000\r\nLOCAL_DOMAIN = example.com\n  BIND=0.0.0.0  \n"), {
      PORT: "4000",
      LOCAL_DOMAIN: "example.com",
      BIND: "0.0.0.0",
    });
  });

  it("strips matching quotes and keeps # inside them, drops trailing comments outside", () => {
    assert.deepEqual(parseDotEnv(`A="x y # z"\nB='single'\nC=plain # note\nD=a#b\nE=""`), {
      A: "x y # z",
      B: "single",
      C: "plain",
      D: "a#b",
      E: "",
    });
  });

  it("takes a quoted value followed by a comment without its quotes", () => {
    assert.deepEqual(parseDotEnv(`SITE_TITLE="My site" # shown on the about page\nB='x' #c\nC="a"b"`), {
      SITE_TITLE: "My site",
      B: "x",
      C: 'a"b',
    });
  });

  it("accepts `export` and ignores lines that are not assignments", () => {
    assert.deepEqual(parseDotEnv("export SECRET_KEY=abc\nnot an assignment\n1BAD=x\n=y\n"), { SECRET_KEY: "abc" });
  });

  it("lets a later line win", () => {
    assert.deepEqual(parseDotEnv("PORT=1\nPORT=2"), { PORT: "2" });
  });
});

describe("readEnvironment", () => {
  it("fills in .env values where the process environment has none", () => {
    const dir = mkdtempSync(join(tmpdir(), "gannet-dotenv-"));
    try {
      const name = `GANNET_TEST_${process.pid}`;
      writeFileSync(join(dir, ".env"), `${name}_FROM_FILE=file\n${name}_BOTH=file\n`);
      process.env[`${name}_BOTH`] = "process";
      try {
        const env = readEnvironment(dir);
        assert.equal(env[`${name}_FROM_FILE`], "file");
        assert.equal(env[`${name}_BOTH`], "process");
      } finally {
        delete process.env[`${name}_BOTH`];
      }
      assert.equal(readEnvironment(join(dir, "missing"))[`${name}_FROM_FILE`], undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
