import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createInstance,
  type Env,
  freePort,
  gannetOk,
  type Instance,
  type ServerProcess,
  startServer,
} from "./harness.ts";

/**
 * Two server processes on one PostgreSQL database keep tokens, the verify_credentials answer,
 * home feed pages and rendered posts in memory, each under change stamps that the other's writes
 * move through change notices on the event bus (db/change-notices.ts; docs/scaling.md, "Caches
 * on PostgreSQL"). A change made through one process, or by the `gannet` command, shows in the
 * other as soon as the notice arrives: the maximum age (the fallback for writes nobody
 * announces) is set to an hour here, so only the notices can make it show.
 */
const buses: { name: string; redis: boolean }[] = [];
if (process.env.DATABASE_URL) buses.push({ name: "PostgreSQL LISTEN/NOTIFY (no REDIS_URL)", redis: false });
if (process.env.DATABASE_URL && process.env.REDIS_URL) buses.push({ name: "Redis pub/sub", redis: true });

if (buses.length === 0) {
  describe("caches across processes", () => {
    it("runs with DATABASE_URL (and REDIS_URL)", { skip: "DATABASE_URL is not set" }, () => {});
  });
}

/** Asks until `check` holds (the notice is on its way); fails after 10 s. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${what}: not seen within 10 s`);
}

async function call(url: string, token: string | undefined, method = "GET", json?: unknown) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(json ? { "content-type": "application/json" } : {}),
    },
    body: json ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text };
}

for (const bus of buses) {
  describe(`caches across processes: ${bus.name}`, () => {
    let inst: Instance;
    let a: ServerProcess;
    let b: ServerProcess;
    let alice: string;
    let bob: string;

    before(async () => {
      inst = await createInstance();
      if (!bus.redis) {
        delete inst.env.REDIS_URL;
        delete inst.env.REDIS_NAMESPACE;
      }
      for (const u of ["alice", "bob"]) {
        await gannetOk(inst, "accounts", "create", u, "--email", `${u}@example.com`, "--confirmed", "--approved");
      }
      alice = (await gannetOk(inst, "tokens", "create", "alice", "--scopes", "read write follow")).trim();
      bob = (await gannetOk(inst, "tokens", "create", "bob", "--scopes", "read write follow")).trim();
      const shared: Env = { ...inst.env, LOCAL_DOMAIN: `localhost:${inst.port}`, DATABASE_CACHE_MAX_AGE: "3600" };
      a = await startServer({ env: { ...shared, RATE_LIMITS: "off" }, cwd: inst.dir });
      b = await startServer({
        env: { ...shared, PORT: String(await freePort()), GANNET_ROLE: "web", RATE_LIMITS: "off" },
        cwd: inst.dir,
      });
    });
    after(async () => {
      await b?.stop();
      await a?.stop();
      await inst.cleanup();
    });

    it("a token revoked through one process stops working in the other", async () => {
      const app = await call(`${a.url}/api/v1/apps`, undefined, "POST", {
        client_name: "cache test",
        redirect_uris: "urn:ietf:wg:oauth:2.0:oob",
        scopes: "read",
      });
      const { client_id, client_secret } = app.body as { client_id: string; client_secret: string };
      const tokenRes = await call(`${a.url}/oauth/token`, undefined, "POST", {
        grant_type: "client_credentials",
        client_id,
        client_secret,
        scope: "read",
      });
      const token = (tokenRes.body as { access_token: string }).access_token;
      // Known to both processes (and kept by both, their stamps being defined).
      for (let i = 0; i < 3; i++) {
        assert.equal((await call(`${b.url}/api/v1/apps/verify_credentials`, token)).status, 200);
        assert.equal((await call(`${a.url}/api/v1/apps/verify_credentials`, token)).status, 200);
      }
      const revoked = await call(`${a.url}/oauth/revoke`, undefined, "POST", { client_id, client_secret, token });
      assert.equal(revoked.status, 200);
      assert.equal((await call(`${a.url}/api/v1/apps/verify_credentials`, token)).status, 401);
      await eventually("the revocation in the other process", async () => {
        return (await call(`${b.url}/api/v1/apps/verify_credentials`, token)).status === 401;
      });
    });

    it("a profile changed through one process shows in the other's verify_credentials", async () => {
      for (let i = 0; i < 3; i++) {
        assert.equal((await call(`${b.url}/api/v1/accounts/verify_credentials`, alice)).status, 200);
      }
      const changed = await call(`${a.url}/api/v1/accounts/update_credentials`, alice, "PATCH", {
        display_name: "Alice Changed",
      });
      assert.equal(changed.status, 200);
      await eventually("the new display name in the other process", async () => {
        const r = await call(`${b.url}/api/v1/accounts/verify_credentials`, alice);
        return r.body.display_name === "Alice Changed";
      });
    });

    it("a post, its edit and its deletion through one process show on the other's home timeline", async () => {
      const aliceId = (await call(`${a.url}/api/v1/accounts/verify_credentials`, alice)).body.id as string;
      assert.equal((await call(`${a.url}/api/v1/accounts/${aliceId}/follow`, bob, "POST")).status, 200);
      const home = async () => (await call(`${b.url}/api/v1/timelines/home?limit=40`, bob)).body as any[];
      await home();
      await home();
      const post = (await call(`${a.url}/api/v1/statuses`, alice, "POST", { status: "first words" })).body;
      await eventually("the post on the other's home", async () => (await home()).some((s) => s.id === post.id));
      await home();
      const edited = await call(`${a.url}/api/v1/statuses/${post.id}`, alice, "PUT", { status: "second words" });
      assert.equal(edited.status, 200);
      await eventually("the edit on the other's home", async () =>
        (await home()).some((s) => s.id === post.id && s.content.includes("second words")),
      );
      assert.equal((await call(`${a.url}/api/v1/statuses/${post.id}`, alice, "DELETE")).status, 200);
      await eventually("the deletion on the other's home", async () => !(await home()).some((s) => s.id === post.id));
    });

    it("an account disabled by the gannet command (a third process) cannot use its token in either", async () => {
      for (let i = 0; i < 3; i++) {
        assert.equal((await call(`${b.url}/api/v1/accounts/verify_credentials`, bob)).status, 200);
        assert.equal((await call(`${a.url}/api/v1/accounts/verify_credentials`, bob)).status, 200);
      }
      await gannetOk(inst, "accounts", "modify", "bob", "--disable");
      for (const server of [a, b]) {
        await eventually("the disabled account", async () => {
          return (await call(`${server.url}/api/v1/accounts/verify_credentials`, bob)).status !== 200;
        });
      }
    });
  });
}
