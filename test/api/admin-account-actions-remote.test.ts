import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/db/repositories/accounts.ts";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

/** A remote account suspended here: its activities are refused until `unsuspend`. */
describe("Admin API: suspending a remote account", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let bobAccount: Account;
  let admin: TestUser;
  let alice: TestUser;
  let inbox: string;

  const settle = () => s.settle({ delayed: false, skip: ["media.cache-remote"], allowDead: true });
  const statusCount = async () =>
    (await s.ctx.db.selectFrom("statuses").select("id").where("account_id", "=", bobAccount.id).execute()).length;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    alice = await s.createUser("alice");
    inbox = `${s.url}/inbox`;
    assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "hello")))).status, 202);
    await settle();
    const stored = await s.ctx.repos.accounts.getByUri(bob.id);
    assert.ok(stored);
    bobAccount = stored;
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("refuses its activities while suspended, and takes them again after unsuspend", async () => {
    assert.equal(await statusCount(), 1);
    const r = await s.request(`/api/v1/admin/accounts/${bobAccount.id}/action`, {
      method: "POST",
      token: admin.token,
      json: { type: "suspend", text: "spam" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // No notification or mail for a remote account.
    assert.equal(
      s.ctx.mailer.recent.some((m) => m.subject.includes("bob")),
      false,
    );

    await remote.send(inbox, remote.create(bob, remote.note(bob, "while suspended")));
    await remote.send(inbox, remote.activity(bob, "Follow", { object: alice.account.uri }));
    await settle();
    assert.equal(await statusCount(), 1);
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${bobAccount.id}`, { token: alice.token });
    assert.equal(rel.body[0]?.followed_by ?? false, false);
    // Still suspended by this server.
    assert.equal((await s.ctx.repos.accounts.getById(bobAccount.id))?.suspensionOrigin, "local");

    const un = await s.request(`/api/v1/admin/accounts/${bobAccount.id}/unsuspend`, {
      method: "POST",
      token: admin.token,
      json: {},
    });
    assert.equal(un.status, 200);
    await remote.send(inbox, remote.create(bob, remote.note(bob, "back again")));
    await settle();
    assert.equal(await statusCount(), 2);
  });
});
