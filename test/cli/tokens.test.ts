import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sha256 } from "../../src/lib/crypto.ts";
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
 * `gannet tokens create` and `gannet accounts modify/delete` against a running server: the CLI and
 * the server are separate processes sharing one database, as on a real machine.
 */
describe("gannet tokens create with a running server", () => {
  let inst: Instance;
  let server: ServerProcess;
  before(async () => {
    inst = await createInstance({ REGISTRATIONS_MODE: "approved" });
    await gannetOk(
      inst,
      "accounts",
      "create",
      "alice",
      "--email",
      "alice@example.com",
      "--role",
      "Owner",
      "--confirmed",
      "--approved",
    );
    server = await startServer({ env: inst.env, cwd: inst.dir });
  });
  after(async () => {
    await server?.stop();
    await inst.cleanup();
  });

  const verify = (token: string) => getJson(`${server.url}/api/v1/accounts/verify_credentials`, token);

  it("prints exactly one token line, nothing else, and the token signs in as the account", async () => {
    const r = await gannet(inst, "tokens", "create", "alice", "--scopes", "read write follow push");
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^[A-Za-z0-9_-]{20,}\n$/);
    assert.equal(r.stderr, "");
    const res = await verify(r.stdout.trim());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.username, "alice");
    assert.equal(res.body.role.name, "Owner");
  });

  it("gives the token exactly the scopes asked for, read write follow push by default", async () => {
    const ctx = await inst.openContext();
    try {
      const defaultToken = (await gannetOk(inst, "tokens", "create", "alice")).trim();
      const stored = await ctx.repos.oauth.getTokenByHash(sha256(defaultToken));
      assert.deepEqual(stored?.scopes, ["read", "write", "follow", "push"]);
      const custom = (
        await gannetOk(inst, "tokens", "create", "alice", "--scopes", "read:accounts write:statuses")
      ).trim();
      assert.deepEqual((await ctx.repos.oauth.getTokenByHash(sha256(custom)))?.scopes, [
        "read:accounts",
        "write:statuses",
      ]);
      const app = await ctx.repos.oauth.getApplicationById(stored!.applicationId!);
      assert.equal(app?.name, "Gannet command line");
    } finally {
      await ctx.close();
    }
  });

  it("issues tokens the server holds to their scopes", async () => {
    const writeOnly = (await gannetOk(inst, "tokens", "create", "alice", "--scopes", "write")).trim();
    const denied = await verify(writeOnly);
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { error: "This action is outside the authorized scopes" });
    const profile = (await gannetOk(inst, "tokens", "create", "alice", "--scopes", "profile")).trim();
    assert.equal((await verify(profile)).status, 200);
  });

  it("refuses unknown scopes with a usage message and exit 2, printing no token", async () => {
    for (const scopes of ["read wrte", "admin:everything", ""]) {
      const r = await gannet(inst, "tokens", "create", "alice", "--scopes", scopes);
      assert.equal(r.code, 2, scopes);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /Usage: gannet tokens create USERNAME/);
    }
    const r = await gannet(inst, "tokens", "create", "alice", "--scopes", "read wrte");
    assert.match(r.stderr, /unknown scope: wrte/);
  });

  it("fails with exit 1 for an unknown account and exit 2 without one", async () => {
    const r = await gannet(inst, "tokens", "create", "nobody");
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^gannet: no local account named nobody\n$/);
    const u = await gannet(inst, "tokens", "create");
    assert.equal(u.code, 2);
    assert.match(u.stderr, /missing USERNAME/);
  });

  it("still prints only the token for an account that cannot sign in yet, with a warning on stderr", async () => {
    await gannetOk(inst, "accounts", "create", "pending", "--email", "pending@example.com", "--confirmed");
    const r = await gannet(inst, "tokens", "create", "pending");
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^[A-Za-z0-9_-]{20,}\n$/);
    assert.match(r.stderr, /pending is waiting for approval/);
    const token = r.stdout.trim();
    const before = await verify(token);
    assert.equal(before.status, 403);
    assert.deepEqual(before.body, { error: "Your login is currently pending approval" });
    await gannetOk(inst, "accounts", "modify", "pending", "--approve");
    assert.equal((await verify(token)).status, 200);
  });

  it("makes the account's tokens answer 403 once disabled, and work again once enabled", async () => {
    const token = (await gannetOk(inst, "tokens", "create", "alice")).trim();
    assert.equal((await verify(token)).status, 200);
    assert.equal(await gannetOk(inst, "accounts", "modify", "alice", "--disable"), "OK\n");
    const disabled = await verify(token);
    assert.equal(disabled.status, 403);
    assert.deepEqual(disabled.body, { error: "Your login is currently disabled" });
    await gannetOk(inst, "accounts", "modify", "alice", "--enable");
    assert.equal((await verify(token)).status, 200);
  });

  it("makes the account's tokens invalid once deleted", async () => {
    await gannetOk(inst, "accounts", "create", "doomed", "--email", "doomed@example.com", "--confirmed", "--approved");
    const token = (await gannetOk(inst, "tokens", "create", "doomed")).trim();
    const res = await verify(token);
    assert.equal(res.status, 200);
    assert.equal(await gannetOk(inst, "accounts", "delete", "doomed"), "OK\n");
    const after = await verify(token);
    assert.equal(after.status, 401);
    assert.deepEqual(after.body, { error: "The access token is invalid" });
    const again = await gannet(inst, "tokens", "create", "doomed");
    assert.equal(again.code, 1);
    assert.equal(again.stdout, "");
    // GET /api/v1/accounts/:id is not built yet; the accounts test checks the row left behind.
  });
});
