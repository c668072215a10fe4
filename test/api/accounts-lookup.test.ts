import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("public account reads", () => {
  let s: TestServer;
  let alice: TestUser;
  let unconfirmed: TestUser;
  let unapproved: TestUser;
  let remoteId: string;

  before(async () => {
    s = await startTestServer({ WEB_DOMAIN: "web.example", LOCAL_DOMAIN: "example.social", LOCAL_HTTPS: "false" });
    alice = await s.createUser("alice");
    unconfirmed = await s.createUser("unconf", { confirmed: false });
    unapproved = await s.createUser("unappr", { approved: false });
    remoteId = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "Remote",
      domain: "remote.example",
      uri: "https://remote.example/users/Remote",
      url: "https://remote.example/@Remote",
      created_at: now,
      updated_at: now,
    });
  });
  after(() => s.close());

  it("GET /api/v1/accounts/:id shows visible accounts and hides unconfirmed and unapproved ones", async () => {
    const r = await s.request(`/api/v1/accounts/${alice.account.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.id, alice.account.id);
    assert.equal(r.body.acct, "alice");
    assert.equal(r.body.suspended, undefined);
    assert.equal((await s.request(`/api/v1/accounts/${remoteId}`)).body.acct, "Remote@remote.example");
    for (const u of [unconfirmed, unapproved]) {
      const hidden = await s.request(`/api/v1/accounts/${u.account.id}`);
      assert.equal(hidden.status, 404);
      assert.deepEqual(hidden.body, { error: "Record not found" });
    }
    assert.equal((await s.request("/api/v1/accounts/99999")).status, 404);
    assert.equal((await s.request("/api/v1/accounts/99999999999999999999999")).status, 404);
  });

  it("checks a sent token: bad is 401, missing scope 403", async () => {
    assert.equal((await s.request(`/api/v1/accounts/${alice.account.id}`, { token: "bogus" })).status, 401);
    const pushOnly = await s.createUser("pushonly", { scopes: "push" });
    assert.equal((await s.request(`/api/v1/accounts/${alice.account.id}`, { token: pushOnly.token })).status, 403);
    assert.equal((await s.request(`/api/v1/accounts/${alice.account.id}`, { token: alice.token })).status, 200);
  });

  it("renders suspended accounts emptied, and deleted accounts as 410", async () => {
    const sus = await s.createUser("suspendee");
    await s.ctx.repos.accounts.update(sus.account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "local",
      display_name: "Secret",
    });
    const r = await s.request(`/api/v1/accounts/${sus.account.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.suspended, true);
    assert.equal(r.body.display_name, "");

    const del = await s.createUser("deletee");
    await s.ctx.repos.accounts.update(del.account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "deleted",
    });
    assert.equal((await s.request(`/api/v1/accounts/${del.account.id}`)).status, 410);
    assert.equal((await s.request("/api/v1/accounts/lookup?acct=deletee")).status, 410);
  });

  it("GET /api/v1/accounts?id[]= skips invisible and unknown ids and keeps the order", async () => {
    const q = [remoteId, unconfirmed.account.id, "123", "abc", alice.account.id, unapproved.account.id]
      .map((id) => `id[]=${id}`)
      .join("&");
    const r = await s.request(`/api/v1/accounts?${q}`);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.map((a: { id: string }) => a.id),
      [remoteId, alice.account.id],
    );
    assert.deepEqual((await s.request("/api/v1/accounts")).body, []);
    assert.equal((await s.request(`/api/v1/accounts?id=${alice.account.id}`)).body.length, 1);
    const many = Array.from({ length: 41 }, (_, i) => `id[]=${1000 + i}`).join("&");
    assert.equal((await s.request(`/api/v1/accounts?${many}`)).status, 422);
  });

  it("lookup trims, strips @, knows both local domains and finds unconfirmed accounts", async () => {
    for (const acct of ["alice", "  alice  ", " @alice ", "@ALICE", "alice@example.social", "alice@WEB.example"]) {
      const r = await s.request(`/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
      assert.equal(r.status, 200, acct);
      assert.equal(r.body.id, alice.account.id, acct);
    }
    for (const u of ["unconf", "unappr"]) {
      assert.equal((await s.request(`/api/v1/accounts/lookup?acct=${u}`)).status, 200, u);
    }
    const remote = await s.request("/api/v1/accounts/lookup?acct=remote@Remote.Example");
    assert.equal(remote.status, 200);
    assert.equal(remote.body.id, remoteId);
    for (const acct of ["nobody", "alice@other.example", "a@b@c", "bad name", "alice@evil.example/path"]) {
      const r = await s.request(`/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
      assert.equal(r.status, 404, acct);
      assert.deepEqual(r.body, { error: "Record not found" });
    }
    const missing = await s.request("/api/v1/accounts/lookup");
    assert.equal(missing.status, 400);
    assert.equal((await s.request("/api/v1/accounts/lookup?acct=%20%20")).status, 400);
  });

  it("keeps unconfirmed and unapproved accounts out of search and mentions (repository conditions)", async () => {
    const repo = s.ctx.repos.accounts;
    const all = [alice.account.id, unconfirmed.account.id, unapproved.account.id, remoteId];
    const pub = await repo.getPublicByIds(all);
    assert.deepEqual(pub.map((a) => a.id).sort(), [alice.account.id, remoteId].sort());
    const searchable = await repo.searchableIds([...all, "1"]);
    assert.deepEqual([...searchable].sort(), [alice.account.id, remoteId].sort());
    assert.equal((await repo.getMentionable("ALICE", null))?.id, alice.account.id);
    assert.equal((await repo.getMentionable("remote", "REMOTE.example"))?.id, remoteId);
    assert.equal(await repo.getMentionable("unconf", null), undefined);
    assert.equal(await repo.getMentionable("unappr", null), undefined);

    // Suspended accounts are public (shown emptied) but neither searchable nor mentionable.
    const sus = await s.createUser("suspended2");
    await repo.update(sus.account.id, { suspended_at: new Date().toISOString(), suspension_origin: "local" });
    assert.equal((await repo.getPublicByIds([sus.account.id])).length, 1);
    assert.equal((await repo.searchableIds([sus.account.id])).size, 0);
    assert.equal(await repo.getMentionable("suspended2", null), undefined);
  });
});
