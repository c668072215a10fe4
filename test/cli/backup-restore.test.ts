import assert from "node:assert/strict";
import { cp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import sharp from "sharp";
import {
  createInstance,
  gannet,
  gannetOk,
  getJson,
  type Instance,
  type ServerProcess,
  startServer,
} from "./harness.ts";

/**
 * A running server with an account, a status, an upload and a signed-in browser is backed up,
 * restored into a fresh DATA_DIR (on PostgreSQL: a second, new database) and started there.
 */

const PASSWORD = "a long enough password 1";
const OOB = "urn:ietf:wg:oauth:2.0:oob";

/** A browser reduced to its cookies. */
class Jar {
  readonly cookies = new Map<string, string>();
  async get(
    base: string,
    path: string,
    init: RequestInit = {},
  ): Promise<{ status: number; body: string; location: string | null }> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(`${base}${path}`, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return { status: res.status, body: await res.text(), location: res.headers.get("location") };
  }
}

function hiddenFields(html: string, action: string): Record<string, string> {
  const form = [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].find((m) => m[1] === action);
  assert.ok(form, `no form posting to ${action}:\n${html}`);
  const out: Record<string, string> = {};
  for (const m of form[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1]] = m[2].replaceAll("&amp;", "&").replaceAll("&quot;", '"');
  }
  return out;
}

async function pgQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe("gannet backup and restore", () => {
  let source: Instance;
  let target: Instance;
  let server: ServerProcess | undefined;
  let restoreDb: string | undefined;
  const pgUrl = process.env.DATABASE_URL;

  before(async () => {
    source = await createInstance();
    // The restored server keeps the old one's domain: accounts' addresses and URIs depend on it.
    target = await createInstance({ LOCAL_DOMAIN: `localhost:${source.port}` });
    if (pgUrl) {
      // An empty database of its own, as on a new machine; the dump recreates the source's schema in it.
      restoreDb = `test_restore_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      await pgQuery(pgUrl, `CREATE DATABASE ${restoreDb}`);
      const u = new URL(source.env.DATABASE_URL);
      u.pathname = `/${restoreDb}`;
      target.env.DATABASE_URL = u.toString();
    }
  });
  after(async () => {
    await server?.stop();
    await source.cleanup();
    await target.cleanup();
    if (pgUrl && restoreDb) await pgQuery(pgUrl, `DROP DATABASE IF EXISTS ${restoreDb} WITH (FORCE)`);
  });

  it("restores the account, status, media and secret key of a running server elsewhere", async () => {
    server = await startServer({ env: source.env, cwd: source.dir });
    const base = server.url;
    await gannetOk(
      source,
      "accounts",
      "create",
      "alice",
      "--email",
      "alice@example.test",
      "--password",
      PASSWORD,
      "--confirmed",
      "--approved",
    );
    const token = (await gannetOk(source, "tokens", "create", "alice")).trim();
    const auth = { authorization: `Bearer ${token}` };

    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "blue.png");
    const up = await fetch(`${base}/api/v2/media`, { method: "POST", headers: auth, body: form });
    assert.ok(up.status === 200 || up.status === 202, await up.clone().text());
    const media = (await up.json()) as { id: string };
    let m = await getJson(`${base}/api/v1/media/${media.id}`, token);
    for (let i = 0; i < 200 && m.status === 206; i++) {
      await new Promise((r) => setTimeout(r, 25));
      m = await getJson(`${base}/api/v1/media/${media.id}`, token);
    }
    assert.equal(m.status, 200);
    const posted = await fetch(`${base}/api/v1/statuses`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ status: "kept across machines", media_ids: [media.id] }),
    });
    assert.equal(posted.status, 200, await posted.clone().text());
    const status = (await posted.json()) as { id: string; media_attachments: { url: string }[] };
    const mediaPath = new URL(status.media_attachments[0].url).pathname;
    const original = await fetch(`${base}${mediaPath}`);
    assert.equal(original.status, 200);
    const originalBytes = Buffer.from(await original.arrayBuffer());

    // A browser signs in: its session cookie is signed with the secret key.
    const app = await fetch(`${base}/api/v1/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Backup test", redirect_uris: OOB, scopes: "read" }),
    });
    const { client_id } = (await app.json()) as { client_id: string };
    const authorize = `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id, redirect_uri: OOB, scope: "read" })}`;
    const browser = new Jar();
    const page = await browser.get(base, authorize);
    const signIn = await browser.get(base, "/auth/sign_in", {
      method: "POST",
      body: new URLSearchParams({
        ...hiddenFields(page.body, "/auth/sign_in"),
        email: "alice@example.test",
        password: PASSWORD,
      }),
    });
    assert.equal(signIn.status, 302, signIn.body);
    const consent = await new Jar().get(base, authorize, {
      headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    assert.match(consent.body, /action="\/oauth\/authorize"/);

    // Online: the server is still running, and writing meanwhile.
    const dir = join(source.dir, "backup");
    let backingUp = true;
    let written = 0;
    const writer = (async () => {
      while (backingUp) {
        const w = await fetch(`${base}/api/v1/statuses`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ status: `meanwhile ${written}` }),
        });
        assert.equal(w.status, 200);
        written++;
      }
    })();
    const b = await gannet(source, "backup", dir).finally(() => {
      backingUp = false;
    });
    await writer;
    assert.equal(b.code, 0, b.stderr);
    if (!pgUrl) {
      const copy = new DatabaseSync(join(dir, "database.sqlite3"), { readOnly: true });
      try {
        assert.deepEqual(
          copy
            .prepare("PRAGMA integrity_check")
            .all()
            .map((r) => r.integrity_check),
          ["ok"],
        );
      } finally {
        copy.close();
      }
    }
    assert.match(b.stdout, /^backup\t/m);
    assert.match(b.stdout, /^secret key\tincluded$/m);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    assert.equal(manifest.dialect, pgUrl ? "postgres" : "sqlite");
    assert.match(manifest.schemaVersion, /^\d{4}-/);
    assert.equal(manifest.secretKey, "file");
    for (const f of manifest.files) assert.match(f.sha256, /^[0-9a-f]{64}$/);
    assert.ok(manifest.files.some((f: { path: string }) => f.path.startsWith("media/")));
    assert.ok(!manifest.files.some((f: { path: string }) => /-(wal|shm)$/.test(f.path)));
    await server.stop();
    server = undefined;

    const r = await gannet(target, "restore", dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /database: /);
    assert.match(r.stdout, /media: \d+ files/);
    assert.match(r.stdout, /secret key: /);
    assert.match(r.stdout, /still to do:/);

    server = await startServer({ env: target.env, cwd: target.dir });
    const there = server.url;
    const me = await getJson(`${there}/api/v1/accounts/verify_credentials`, token);
    assert.equal(me.status, 200);
    assert.equal(me.body.username, "alice");
    const st = await getJson(`${there}/api/v1/statuses/${status.id}`, token);
    assert.equal(st.status, 200);
    assert.match(st.body.content, /kept across machines/);
    assert.equal(st.body.media_attachments.length, 1);
    const file = await fetch(`${there}${mediaPath}`);
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), originalBytes);
    // The old session cookie still counts as signed in: the secret key came along.
    const again = await new Jar().get(there, authorize, {
      headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    assert.equal(again.status, 200);
    assert.match(again.body, /action="\/oauth\/authorize"/);
    assert.doesNotMatch(again.body, /action="\/auth\/sign_in"/);
    await server.stop();
    server = undefined;

    // A second restore over the data now there is refused without --force.
    const refused = await gannet(target, "restore", dir);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refusing to overwrite existing data/);
    assert.match(refused.stderr, /--force/);
    const forced = await gannet(target, "restore", dir, "--force");
    assert.equal(forced.code, 0, forced.stderr);
  });

  it("writes and restores one .tar file as well", async () => {
    const file = join(source.dir, "gannet.tar");
    const b = await gannet(source, "backup", file);
    assert.equal(b.code, 0, b.stderr);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    // Over the data the first test restored: --force replaces it.
    const r = await gannet(target, "restore", file, "--force");
    assert.equal(r.code, 0, r.stderr);
    assert.match(await gannetOk(target, "accounts", "list"), /^alice\talice@example\.test\t/m);
    // The unpacked copy is gone again.
    assert.deepEqual(
      (await readdir(target.dataDir)).filter((n) => n.startsWith(".restore-")),
      [],
    );
  });

  it("says when SECRET_KEY comes from the environment, and the restore asks for it", async () => {
    const key = "k".repeat(40);
    const withKey = { ...source, env: { ...source.env, SECRET_KEY: key } };
    const dir = join(source.dir, "env-key");
    const b = await gannet(withKey, "backup", dir);
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stdout, /^secret key\tfrom SECRET_KEY, not included$/m);
    assert.match(b.stderr, /SECRET_KEY comes from the environment/);
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8"));
    assert.equal(manifest.secretKey, "environment");
    assert.ok(!manifest.files.some((f: { path: string }) => f.path === "secret_key"));
    assert.ok(!(await readFile(join(dir, "manifest.json"), "utf8")).includes(key));
    const r = await gannet(target, "restore", dir, "--force");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /set the same SECRET_KEY here/);
  });

  it("refuses a damaged backup before changing anything", async () => {
    const dir = join(source.dir, "backup");
    const damaged = join(source.dir, "damaged");
    await cp(dir, damaged, { recursive: true });
    const manifest = JSON.parse(await readFile(join(damaged, "manifest.json"), "utf8"));
    const media = manifest.files.find((f: { path: string }) => f.path.startsWith("media/"));
    await writeFile(join(damaged, media.path), "not the picture");
    const fresh = { ...target, env: { ...target.env, DATA_DIR: join(source.dir, "fresh") } };
    const r = await gannet(fresh, "restore", damaged);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the backup is damaged, nothing was restored/);
    assert.ok(r.stderr.includes(media.path));
  });

  it("refuses a directory that is not empty, and a missing argument", async () => {
    const exists = await gannet(source, "backup", join(source.dir, "backup"));
    assert.equal(exists.code, 1);
    assert.match(exists.stderr, /already exists/);
    const missing = await gannet(source, "restore");
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing DIR or FILE\.tar/);
    const help = await gannetOk(source, "help", "restore");
    assert.match(help, /^Usage: gannet restore DIR\|FILE\.tar \[--force\]/);
  });
});
