import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("Admin API: approve, reject, enable; the addresses users come from", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let reader: TestUser;
  let plain: TestUser;
  let app: string;
  const now = new Date().toISOString();

  const post = (path: string, u: TestUser = admin) => s.request(path, { method: "POST", token: u.token, json: {} });
  const logOf = (targetId: string) => s.ctx.repos.adminActionLogs.page({ targetType: "User", targetId }, { limit: 10 });

  /** Signs up through the API from `ip`; answers the new token and account id. */
  // Sign-ups are limited per address (5 in 30 minutes): each comes from its own unless told.
  let signUps = 0;
  async function register(username: string, ip = `198.51.100.${100 + signUps++}`, email = `${username}@example.com`) {
    const r = await s.request("/api/v1/accounts", {
      token: app,
      headers: { "X-Forwarded-For": ip },
      json: { username, email, password: "long enough pw", agreement: true, reason: "I like birds" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const account = await s.ctx.repos.accounts.getByUsername(username, null);
    assert.ok(account);
    return { token: r.body.access_token as string, accountId: account.id };
  }
  const confirm = async (accountId: string) => {
    const user = await s.ctx.repos.users.getByAccountId(accountId);
    await s.ctx.repos.users.update(user?.id as string, { confirmed_at: now });
  };

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "approved" });
    owner = await s.createUser("olga", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adam", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mona", { role: "Moderator", scopes: ADMIN_SCOPES });
    reader = await s.createUser("rhea", { role: "Admin", scopes: "read admin:read" });
    plain = await s.createUser("plain", { scopes: ADMIN_SCOPES });
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("records the sign-up address and the addresses a token is used from", async () => {
    const { token, accountId } = await register("newbie", "198.51.100.23");
    const before = (await s.request(`/api/v1/admin/accounts/${accountId}`, { token: admin.token })).body;
    assert.equal(before.ip, "198.51.100.23");
    assert.deepEqual(
      before.ips.map((x: any) => x.ip),
      ["198.51.100.23"],
    );
    assert.equal(before.invite_request, "I like birds");
    assert.equal(before.approved, false);
    assert.equal(before.confirmed, false);
    assert.match(before.created_by_application_id, /^\d+$/, "signed up through an app");
    // A token's first use is a sign-in, from wherever it comes.
    await s.request("/api/v1/accounts/verify_credentials", { token, headers: { "X-Forwarded-For": "192.0.2.9" } });
    const after = (await s.request(`/api/v1/admin/accounts/${accountId}`, { token: admin.token })).body;
    assert.equal(after.ip, "192.0.2.9");
    assert.deepEqual(after.ips.map((x: any) => x.ip).sort(), ["192.0.2.9", "198.51.100.23"]);
    const listed = await s.request("/api/v2/admin/accounts?ip=192.0.2.0/24", { token: admin.token });
    assert.deepEqual(
      listed.body.map((a: any) => a.username),
      ["newbie"],
    );
  });

  it("records a sign-in through the web form", async () => {
    const u = await s.createUser("webby");
    const page = await s.request("/auth/sign_in");
    const csrf = /name="authenticity_token" value="([^"]+)"/.exec(String(page.body))?.[1];
    const cookie = page.headers.get("set-cookie")?.split(";")[0];
    assert.ok(csrf && cookie);
    const r = await s.request("/auth/sign_in", {
      method: "POST",
      headers: { cookie, "X-Forwarded-For": "192.0.2.77" },
      form: { authenticity_token: csrf, email: "webby@example.com", password: u.password },
    });
    assert.equal(r.status, 302);
    const ips = await s.ctx.repos.adminAccounts.ipsOf([u.user.id]);
    assert.deepEqual(
      ips.get(u.user.id)?.map((x) => x.ip),
      ["192.0.2.77"],
    );
  });

  it("approve: the pending user can use the API, staff are told, the user is welcomed, the log has it", async () => {
    const { token, accountId } = await register("waiter", "198.51.100.24");
    await confirm(accountId);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token })).status, 403);
    const r = await post(`/api/v1/admin/accounts/${accountId}/approve`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.id, accountId);
    assert.equal(r.body.approved, true);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token })).status, 200);
    await s.settle();
    const n = await s.request("/api/v1/notifications?types[]=admin.sign_up", { token: moderator.token });
    assert.deepEqual(
      n.body.map((x: any) => x.account.id),
      [accountId],
    );
    const mail = s.ctx.mailer.recent.findLast((m) => m.to === "waiter@example.com");
    assert.match(mail?.subject ?? "", /^Welcome to /);
    const userId = (await s.ctx.repos.users.getByAccountId(accountId))?.id as string;
    const [entry, ...rest] = await logOf(userId);
    assert.equal(rest.length, 0);
    assert.equal(entry.action, "approve");
    assert.equal(entry.accountId, admin.account.id);
    assert.equal(entry.humanIdentifier, "@waiter");
    assert.equal(entry.summary, "@adam approved the sign-up of @waiter");
    // Approving again is not allowed (Mastodon's UserPolicy), and logs nothing.
    const again = await post(`/api/v1/admin/accounts/${accountId}/approve`);
    assert.equal(again.status, 403);
    assert.deepEqual(again.body, { error: "This action is not allowed" });
    assert.equal((await logOf(userId)).length, 1);
  });

  it("approve of an unconfirmed user: approved, but nobody is told until the address is confirmed", async () => {
    const { accountId } = await register("slowpoke");
    const r = await post(`/api/v1/admin/accounts/${accountId}/approve`, moderator);
    assert.equal(r.status, 200);
    assert.equal(r.body.approved, true);
    assert.equal(r.body.confirmed, false);
    assert.equal(
      s.ctx.mailer.recent.some((m) => m.to === "slowpoke@example.com" && m.subject.startsWith("Welcome")),
      false,
    );
  });

  it("reject: the sign-up is deleted and answered as it was; the name and address can sign up again", async () => {
    const { token, accountId } = await register("spammer");
    const userId = (await s.ctx.repos.users.getByAccountId(accountId))?.id as string;
    const r = await post(`/api/v1/admin/accounts/${accountId}/reject`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.id, accountId);
    assert.equal(r.body.username, "spammer");
    assert.equal(r.body.email, "spammer@example.com");
    assert.equal(r.body.approved, false);
    assert.equal((await s.request(`/api/v1/admin/accounts/${accountId}`, { token: admin.token })).status, 404);
    assert.equal(await s.ctx.repos.users.getById(userId), undefined);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token })).status, 401);
    const [entry] = await logOf(userId);
    assert.equal(entry.action, "reject");
    assert.equal(entry.summary, "@adam rejected the sign-up of @spammer");
    const again = await register("spammer");
    assert.notEqual(again.accountId, accountId);
  });

  it("reject and approve refuse an approved user, a remote account, an unknown one, and change nothing", async () => {
    const settled = await s.createUser("settled");
    const r = await post(`/api/v1/admin/accounts/${settled.account.id}/reject`);
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: "This action is not allowed" });
    assert.ok(await s.ctx.repos.users.getById(settled.user.id));
    assert.deepEqual(await logOf(settled.user.id), []);
    const remoteId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "far",
      domain: "remote.example",
      uri: "https://remote.example/users/far",
      url: "https://remote.example/@far",
      created_at: now,
      updated_at: now,
    });
    for (const action of ["approve", "reject", "enable"]) {
      assert.equal((await post(`/api/v1/admin/accounts/${remoteId}/${action}`)).status, 403, action);
      assert.equal((await post(`/api/v1/admin/accounts/987654321/${action}`)).status, 404, action);
      assert.equal((await post(`/api/v1/admin/accounts/xyz/${action}`)).status, 404, action);
    }
    assert.ok(await s.ctx.repos.accounts.getById(remoteId));
  });

  it("enable: a disabled user can sign in again; logged", async () => {
    const d = await s.createUser("dizzy");
    await s.ctx.repos.users.update(d.user.id, { disabled: true });
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: d.token })).status, 403);
    const r = await post(`/api/v1/admin/accounts/${d.account.id}/enable`);
    assert.equal(r.status, 200);
    assert.equal(r.body.disabled, false);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: d.token })).status, 200);
    const [entry] = await logOf(d.user.id);
    assert.equal(entry.action, "enable");
    assert.equal(entry.summary, "@adam enabled the login of @dizzy");
  });

  it("writes need admin:write and Manage Users: 403 without them, 401 without a token", async () => {
    const { accountId } = await register("queued");
    for (const action of ["approve", "reject", "enable"]) {
      const path = `/api/v1/admin/accounts/${accountId}/${action}`;
      assert.equal((await post(path, plain)).status, 403, `${action}: no staff role`);
      assert.equal((await post(path, reader)).status, 403, `${action}: no write scope`);
      assert.equal((await s.request(path, { method: "POST", json: {} })).status, 401, action);
    }
    const user = await s.ctx.repos.users.getByAccountId(accountId);
    assert.equal(user?.approved, false, "nothing changed");
    assert.deepEqual(await logOf(user?.id as string), []);
  });

  it("works from a Mastodon client library (masto), as the Owner", async () => {
    const { accountId } = await register("mastoid");
    await confirm(accountId);
    const client = createRestAPIClient({ url: s.url, accessToken: owner.token });
    const pending = await client.v1.admin.accounts.list({ pending: true });
    assert.ok(pending.some((a) => a.id === accountId && a.approved === false));
    const approved = await client.v1.admin.accounts.$select(accountId).approve();
    assert.equal(approved.approved, true);
    assert.equal(approved.account.id, accountId);
    const fetched = await client.v1.admin.accounts.$select(accountId).fetch();
    assert.equal(fetched.email, "mastoid@example.com");
    const [entry] = await logOf((await s.ctx.repos.users.getByAccountId(accountId))?.id as string);
    assert.equal(entry.accountId, owner.account.id);
  });
});
