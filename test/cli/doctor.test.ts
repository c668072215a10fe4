import assert from "node:assert/strict";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  createInstance,
  freePort,
  gannet,
  type Instance,
  queryInstance,
  type ServerProcess,
  startServer,
} from "./harness.ts";

/** The check lines of doctor's answer: status, check name, and the fix line when there is one. */
function checks(stdout: string): { status: string; check: string; text: string; fix?: string }[] {
  const out: { status: string; check: string; text: string; fix?: string }[] = [];
  for (const line of stdout.trimEnd().split("\n")) {
    const fix = /^ {7}fix: (.+)$/.exec(line);
    if (fix) {
      const last = out.at(-1);
      assert.ok(last, line);
      last.fix = fix[1];
      continue;
    }
    const m = /^(ok|warn|FAIL) +([a-z ]+): (.+)$/.exec(line);
    assert.ok(m, `not a check line: ${line}`);
    out.push({ status: m[1], check: m[2], text: m[3] });
  }
  return out;
}

describe("gannet doctor", () => {
  let inst: Instance;
  let server: ServerProcess;
  let impostor: Server;
  let impostorUrl: string;
  before(async () => {
    // A public domain (on loopback, the probe goes to --url instead of https://social.example).
    inst = await createInstance({ LOCAL_DOMAIN: "social.example" });
    server = await startServer({ env: inst.env, cwd: inst.dir });
    // Another site behind the proxy: it answers, but as someone else.
    impostor = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ uri: "other.example" }));
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    impostorUrl = `http://127.0.0.1:${(impostor.address() as { port: number }).port}`;
  });
  after(async () => {
    await server.stop();
    await new Promise((resolve) => impostor.close(resolve));
    await inst.cleanup();
  });

  it("answers ok for a healthy server, with exit 0", async () => {
    const r = await gannet(inst, "doctor", "--url", server.url);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = checks(r.stdout);
    const by = new Map(lines.map((l) => [l.check, l]));
    for (const name of ["settings", "domain", "database", "media", "public url"]) {
      assert.equal(by.get(name)?.status, "ok", `${name}: ${by.get(name)?.text}`);
    }
    assert.match(by.get("database")?.text ?? "", /up to date/);
    assert.match(by.get("public url")?.text ?? "", /is this server/);
    if (process.env.REDIS_URL) assert.equal(by.get("redis")?.status, "ok");
    // ffmpeg may be missing on this machine: a warning, never a failure.
    assert.notEqual(by.get("ffmpeg")?.status, "FAIL");
    assert.ok(!lines.some((l) => l.status === "FAIL"));
  });

  it("fails with fixes for an unreachable Redis, an unwritable media directory and a wrong public URL", async () => {
    const media = join(inst.dataDir, "media");
    const root = process.getuid?.() === 0;
    await rm(media, { recursive: true, force: true });
    // Root writes through any mode bits: a file where the directory should be stands in for it.
    if (root) await writeFile(media, "");
    else {
      await mkdir(media);
      await chmod(media, 0o555);
    }
    try {
      const closed = await freePort();
      const env = { ...inst.env, REDIS_URL: `redis://127.0.0.1:${closed}`, REDIS_NAMESPACE: "doctor" };
      const r = await gannet({ ...inst, env }, "doctor", "--url", impostorUrl);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const by = new Map(checks(r.stdout).map((l) => [l.check, l]));
      assert.equal(by.get("settings")?.status, "ok");
      assert.equal(by.get("database")?.status, "ok");
      const redis = by.get("redis");
      assert.equal(redis?.status, "FAIL");
      assert.match(redis?.text ?? "", new RegExp(`cannot reach redis://127\\.0\\.0\\.1:${closed}`));
      assert.match(redis?.fix ?? "", /REDIS_URL/);
      const m = by.get("media");
      assert.equal(m?.status, "FAIL");
      assert.match(m?.text ?? "", root ? /is not a directory/ : /is not writable/);
      assert.ok(m?.fix);
      const url = by.get("public url");
      assert.equal(url?.status, "FAIL");
      assert.match(url?.text ?? "", /answered by another server \(other\.example\), not this one \(social\.example\)/);
      assert.match(url?.fix ?? "", /reverse proxy/);

      // Nothing listening there at all.
      const nobody = await gannet(inst, "doctor", "--url", `http://127.0.0.1:${closed}`);
      assert.equal(nobody.code, 1);
      const down = checks(nobody.stdout).find((l) => l.check === "public url");
      assert.equal(down?.status, "FAIL");
      assert.match(down?.text ?? "", /cannot reach/);
      assert.match(down?.fix ?? "", /start the server/);
    } finally {
      if (!root) await chmod(media, 0o755);
      await rm(media, { recursive: true, force: true });
    }
  });

  it("fails on a database migrated by a newer Gannet, naming the migration, and changes nothing", async () => {
    const future = "9999-from-a-newer-gannet";
    await queryInstance(inst, "INSERT INTO gannet_migrations (name, applied_at) VALUES ($1, $2)", [
      future,
      new Date().toISOString(),
    ]);
    try {
      const r = await gannet(inst, "doctor", "--url", server.url);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const db = checks(r.stdout).find((l) => l.check === "database");
      assert.equal(db?.status, "FAIL");
      assert.match(db?.text ?? "", new RegExp(`does not know \\(${future}\\)`));
      assert.match(db?.fix ?? "", /restore a backup/);
      const rows = await queryInstance(inst, "SELECT name FROM gannet_migrations WHERE name = $1", [future]);
      assert.equal(rows.length, 1);
    } finally {
      await queryInstance(inst, "DELETE FROM gannet_migrations WHERE name = $1", [future]);
    }
  });

  it("reports a missing database and a bad setting as failures, not usage errors", async () => {
    if (!process.env.DATABASE_URL) {
      const empty = { ...inst, env: { ...inst.env, DATA_DIR: join(inst.dir, "empty") } };
      const r = await gannet(empty, "doctor", "--url", server.url);
      assert.equal(r.code, 1);
      const db = checks(r.stdout).find((l) => l.check === "database");
      assert.equal(db?.status, "FAIL");
      assert.match(db?.text ?? "", /no SQLite database/);
      assert.match(db?.fix ?? "", /gannet restore/);
    }
    const bad = await gannet({ ...inst, env: { ...inst.env, PORT: "abc" } }, "doctor");
    assert.equal(bad.code, 1);
    const [settings] = checks(bad.stdout);
    assert.equal(settings?.status, "FAIL");
    assert.match(settings?.text ?? "", /^PORT\b/);
    assert.ok(settings?.fix);
    const usage = await gannet(inst, "doctor", "--url", "ftp://x");
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--url needs an http/);
  });
});
