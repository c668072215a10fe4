import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// `GET /api/v1/accounts/lookup` needs no token; if it resolved handles, anyone could make this
// server send WebFinger requests wherever they like. Mastodon keeps it to known accounts.
describe("accounts/lookup never asks another server", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let alice: TestUser;

  before(async () => {
    // The fake remote is reachable (loopback allowed), so a request would get through and resolve.
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    await remote.addActor("bird");
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("answers 404 for an unknown remote handle, anonymous or signed in, and sends nothing", async () => {
    for (const acct of [`bird@${remote.domain}`, `@bird@${remote.domain}`, `nobody@${remote.domain}`]) {
      for (const token of [undefined, alice.token]) {
        const r = await s.request(`/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`, { token });
        assert.equal(r.status, 404, `${acct} (${token ? "signed in" : "anonymous"})`);
        assert.deepEqual(r.body, { error: "Record not found" });
      }
    }
    await s.settle();
    assert.deepEqual(remote.requests, []);
  });

  it("finds the account once signed-in search with resolve=true has resolved it", async () => {
    const found = await s.request(`/api/v2/search?q=${encodeURIComponent(`@bird@${remote.domain}`)}&resolve=true`, {
      token: alice.token,
    });
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const id = found.body.accounts[0]?.id;
    assert.ok(id, JSON.stringify(found.body));
    assert.ok(remote.requests.some((r) => r.path.startsWith("/.well-known/webfinger")));
    await s.settle({ allowDead: true });
    const seen = remote.requests.length;
    const r = await s.request(`/api/v1/accounts/lookup?acct=bird@${remote.domain}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.id, id);
    await s.settle({ allowDead: true });
    assert.equal(remote.requests.length, seen, "a fresh known account is not fetched again");
  });
});
