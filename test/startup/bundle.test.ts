import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  cleanEnv,
  createInstance,
  gannetOk,
  getJson,
  type Instance,
  NODE,
  queryInstance,
  ROOT,
  runNode,
  type ServerProcess,
  startServer,
} from "../cli/harness.ts";
import { FakeRemote } from "../helpers/fake-remote.ts";

/**
 * The suite runs the sources; `npm start` runs the bundle scripts/build.ts makes of them. This
 * starts that bundle as a real server and checks what it loads only later: the migrations, the
 * lazily loaded areas, Fedify's inbox, the background jobs.
 */

const BUILD = join(ROOT, "scripts", "build.ts");
const MIGRATIONS = readdirSync(join(ROOT, "src", "db", "migrations")).filter((f) => /^\d{4}-.*\.ts$/.test(f));

describe("the bundled build (npm start)", () => {
  let dir: string;
  let out: string;
  let inst: Instance;
  let server: ServerProcess;
  let remote: FakeRemote;
  let token: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "gannet-bundle-"));
    // The bundle imports the packages it leaves outside from node_modules, found from its folder.
    await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
    out = join(dir, "dist");
    const built = await runNode(BUILD, ["--out", out], { env: {}, cwd: ROOT });
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stderr, /bundled \d+ files/);
    inst = await createInstance({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    // An empty database: the bundle runs every migration (their list is made at build time).
    // With an inbox thread: its module is an entry point of the bundle of its own.
    server = await startServer({
      env: { ...inst.env, INBOX_THREADS: "1" },
      cwd: inst.dir,
      main: join(out, "current", "main.js"),
    });
    await gannetOk(inst, "accounts", "create", "alice", "--email", "alice@example.com", "--confirmed", "--approved");
    token = (await gannetOk(inst, "tokens", "create", "alice", "--scopes", "read write")).trim();
    remote = await FakeRemote.start();
  });
  after(async () => {
    if (server) assert.equal(await server.stop(), 0, server.output());
    await remote?.close();
    await inst?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("is a bundle: main.js and its chunks, the CommonJS and native packages left outside", () => {
    const current = join(out, "current");
    assert.ok(existsSync(join(current, "main.js")));
    const chunks = readdirSync(join(current, "chunks")).filter((f) => f.endsWith(".js"));
    assert.ok(chunks.length > 0 && chunks.length < 400, `${chunks.length} chunks`);
    assert.ok(!existsSync(join(current, "context.js")), "no file per module");
    const code = chunks.map((f) => readFileSync(join(current, "chunks", f), "utf8")).join("\n");
    for (const name of ["sharp", "@node-rs/argon2", "pg", "ioredis"]) {
      assert.match(code, new RegExp(`(from |import\\()"${name}"`), `${name} is imported at run time`);
    }
  });

  it("migrated an empty database with every migration", async () => {
    const rows = await queryInstance(inst, "select name from gannet_migrations order by name");
    assert.deepEqual(
      rows.map((r) => r.name),
      MIGRATIONS.map((f) => f.replace(/\.ts$/, "")),
    );
  });

  it("answers /health and a signed-in API call", async () => {
    assert.equal((await getJson(`${server.url}/health`)).status, 200);
    const me = await getJson(`${server.url}/api/v1/accounts/verify_credentials`, token);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.username, "alice");
  });

  it("opens a streaming WebSocket (ws, loaded on the first upgrade)", async () => {
    const url = `${server.url.replace(/^http/, "ws")}/api/v1/streaming?stream=user&access_token=${token}`;
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`the WebSocket did not open:\n${server.output()}`));
    });
    ws.close();
  });

  it("loads an API area and a web area on their first request", async () => {
    const filters = await getJson(`${server.url}/api/v2/filters`, token);
    assert.equal(filters.status, 200, JSON.stringify(filters.body));
    assert.deepEqual(filters.body, []);
    const signIn = await fetch(`${server.url}/auth/sign_in`);
    assert.equal(signIn.status, 200);
    assert.match(await signIn.text(), /<form/);
  });

  it("serves federation: WebFinger, the actor, and a signed post to the inbox", async () => {
    const finger = await getJson(`${server.url}/.well-known/webfinger?resource=acct:alice@localhost:${inst.port}`);
    assert.equal(finger.status, 200, JSON.stringify(finger.body));
    const actorUrl = finger.body.links.find((l: { rel: string }) => l.rel === "self").href;
    const actor = await fetch(actorUrl.replace(/^https?:\/\/[^/]+/, server.url), {
      headers: { accept: "application/activity+json" },
    });
    assert.equal(actor.status, 200);
    assert.equal((await actor.json()).type, "Person");

    const bob = await remote.addActor("bob");
    const note = remote.note(bob, "1", { content: "<p>from afar</p>" });
    const res = await remote.send(`${server.url}/inbox`, remote.create(bob, note));
    assert.equal(res.status, 202, await res.text());
    // The inbox thread started from the bundle (else the main thread would have served alone).
    assert.match(server.output(), /Inbox thread \d+ is ready/);
    assert.doesNotMatch(server.output(), /An inbox thread failed/);
    const rows = await queryInstance(inst, "select uri from statuses where uri = $1", [note.id]);
    assert.equal(rows.length, 1, "the post is stored");
    const seen = await getJson(`${server.url}/api/v1/timelines/public?remote=true`, token);
    assert.equal(seen.status, 200);
    assert.ok(
      seen.body.some((s: { uri: string }) => s.uri === note.id),
      JSON.stringify(seen.body),
    );
  });
});

describe("scripts/build.ts without esbuild", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "gannet-no-esbuild-"));
    await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("builds one file per module when esbuild cannot load, and that build serves", async () => {
    // As if the optional dependency were not installed: its import fails.
    const hook = join(dir, "no-esbuild.mjs");
    await writeFile(
      hook,
      `import { registerHooks } from "node:module";
registerHooks({ resolve(specifier, context, next) {
  if (specifier === "esbuild") throw new Error("Cannot find package 'esbuild'");
  return next(specifier, context);
} });
`,
    );
    const out = join(dir, "dist");
    const built = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(NODE, ["--import", hook, BUILD, "--out", out], { env: cleanEnv(), cwd: ROOT }, (err, _o, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, stderr }),
      );
    });
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stderr, /esbuild unavailable/);
    assert.match(built.stderr, /built \d+ files/);
    assert.ok(existsSync(join(out, "current", "context.js")), "one file per module");
    const inst = await createInstance();
    try {
      const server = await startServer({
        env: { ...inst.env, INBOX_THREADS: "1" },
        cwd: inst.dir,
        main: join(out, "current", "main.js"),
      });
      try {
        assert.equal((await getJson(`${server.url}/health`)).status, 200, server.output());
        // The inbox thread's module (thread-main.js beside pool.js) starts from this build too.
        for (let i = 0; i < 200 && !/Inbox thread \d+ is ready|An inbox thread failed/.test(server.output()); i++) {
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.match(server.output(), /Inbox thread \d+ is ready/);
      } finally {
        assert.equal(await server.stop(), 0, server.output());
      }
    } finally {
      await inst.cleanup();
    }
  });

  it("falls back to one file per module when esbuild's binary does not run", async () => {
    const out = join(dir, "broken");
    const built = await runNode(BUILD, ["--out", out], { env: { ESBUILD_BINARY_PATH: "/bin/false" }, cwd: ROOT });
    assert.equal(built.code, 0, built.stderr);
    assert.match(built.stderr, /bundling failed, building one file per module instead/);
    assert.ok(existsSync(join(out, "current", "context.js")), "one file per module");
    assert.deepEqual(
      readdirSync(out).filter((name) => name.startsWith(".")),
      [],
      "the failed bundle's temporary directory is gone",
    );
  });
});
