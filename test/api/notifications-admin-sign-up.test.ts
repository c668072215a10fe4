import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { findLocalUser } from "../../src/services/admin/local-user.ts";
import { modifyAccount } from "../../src/services/admin/modify-account.ts";
import { enqueueAdminSignUp } from "../../src/services/notifications/admin-sign-up.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/** Waits until every queued job has run, none having died. */
const settled = (s: TestServer): Promise<void> => s.settle();

async function signUps(s: TestServer, u: TestUser): Promise<any[]> {
  await settled(s);
  const r = await s.request("/api/v1/notifications?types[]=admin.sign_up", { token: u.token });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

async function register(s: TestServer, app: string, username: string): Promise<string> {
  const r = await s.request("/api/v1/accounts", {
    token: app,
    json: { username, email: `${username}@example.com`, password: "long enough pw", agreement: true, reason: "hi" },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const account = await s.ctx.repos.accounts.getByUsername(username, null);
  assert.ok(account);
  return account.id;
}

describe("admin.sign_up notifications (open, no e-mail confirmation)", () => {
  let s: TestServer;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let app: string;

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "open", REQUIRE_EMAIL_CONFIRMATION: "false" });
    admin = await s.createUser("janet", { role: "Admin" });
    moderator = await s.createUser("kim", { role: "Moderator" });
    plain = await s.createUser("lou");
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("tells every user whose role may manage users, from the new account, in v1 and v2", async () => {
    const newId = await register(s, app, "newcomer");
    for (const staff of [admin, moderator]) {
      const [n, ...rest] = await signUps(s, staff);
      assert.equal(rest.length, 0);
      assert.deepEqual(Object.keys(n), ["id", "type", "group_key", "created_at", "account"], "no status");
      assert.equal(n.type, "admin.sign_up");
      assert.equal(n.account.id, newId);
      assert.equal(n.account.username, "newcomer");
      assert.match(n.group_key, /^admin\.sign_up-\d+$/, "sign-ups are grouped by hour");
    }
    assert.deepEqual(await signUps(s, plain), []);
    const v2 = await s.request("/api/v2/notifications", { token: admin.token });
    assert.equal(v2.status, 200);
    const [g] = v2.body.notification_groups;
    assert.equal(g.type, "admin.sign_up");
    assert.deepEqual(g.sample_account_ids, [newId]);
    assert.equal(g.status_id, undefined);
    assert.deepEqual(
      v2.body.accounts.map((a: any) => a.id),
      [newId],
    );
    assert.deepEqual(v2.body.statuses, []);
    const one = await s.request(`/api/v2/notifications/${g.group_key}`, { token: admin.token });
    assert.equal(one.body.notification_groups[0].type, "admin.sign_up");
  });

  it("notifies once even when the job runs again", async () => {
    const newId = await register(s, app, "twice");
    await settled(s);
    await enqueueAdminSignUp(s.ctx, newId);
    const mine = (await signUps(s, admin)).filter((n) => n.account.id === newId);
    assert.equal(mine.length, 1);
    // With the first sign-up, one group of two in v2.
    const v2 = await s.request("/api/v2/notifications", { token: admin.token });
    const [g, ...others] = v2.body.notification_groups;
    assert.equal(others.length, 0);
    assert.equal(g.type, "admin.sign_up");
    assert.equal(g.notifications_count, 2);
    assert.equal(g.sample_account_ids[0], newId);
    assert.equal(v2.body.accounts.length, 2);
  });

  it("a failed sign-up notifies nobody", async () => {
    const before = (await signUps(s, admin)).length;
    const r = await s.request("/api/v1/accounts", {
      token: app,
      json: { username: "bad name!", email: "nope", password: "x", agreement: false },
    });
    assert.equal(r.status, 422);
    assert.equal((await signUps(s, admin)).length, before);
  });
});

describe("admin.sign_up notifications (approval mode, e-mail confirmation)", () => {
  let s: TestServer;
  let admin: TestUser;
  let app: string;

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "approved" });
    admin = await s.createUser("janet", { role: "Admin" });
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("comes once the account is usable: confirmed and approved (Mastodon)", async () => {
    const newId = await register(s, app, "pending");
    assert.deepEqual(await signUps(s, admin), [], "not confirmed, not approved");
    const mail = s.ctx.mailer.recent.findLast((m) => m.to === "pending@example.com");
    const token = /confirmation_token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    assert.ok(token);
    await s.request(`/auth/confirmation?confirmation_token=${token}`);
    assert.ok((await s.ctx.repos.users.getByAccountId(newId))?.confirmedAt);
    assert.deepEqual(await signUps(s, admin), [], "confirmed, still waiting for approval");
    const found = await findLocalUser(s.ctx, "pending");
    assert.ok("found" in found);
    await modifyAccount(s.ctx, found.found, { approve: true });
    const [n] = await signUps(s, admin);
    assert.equal(n?.account.id, newId);
    // Approving again notifies nobody again.
    const again = await findLocalUser(s.ctx, "pending");
    assert.ok("found" in again);
    await modifyAccount(s.ctx, again.found, { approve: true });
    assert.equal((await signUps(s, admin)).length, 1);
  });
});
