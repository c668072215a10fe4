import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("inbox: replies to follows from a server that reuses activity ids (Hollo)", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let alice: TestUser;
  let bobId: string;
  let aliceInbox: string;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    alice = await s.createUser("alice");
    aliceInbox = `${s.url}/users/alice/inbox`;
    // Gannet learns of bob from a post of his.
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(bob, remote.note(bob, "hi")))).status, 202);
    await s.settle({ delayed: false });
    const account = await s.ctx.repos.accounts.getByUri(bob.id);
    assert.ok(account);
    bobId = account.id;
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  const relationship = async () => {
    const r = await s.request(`/api/v1/accounts/relationships?id[]=${bobId}`, { token: alice.token });
    return r.body[0] as { following: boolean; requested: boolean };
  };
  /** Follows bob through the API; answers the id of the Follow his server received. */
  const follow = async () => {
    const before = remote.receivedOfType("Follow").length;
    const r = await s.request(`/api/v1/accounts/${bobId}/follow`, { method: "POST", token: alice.token });
    assert.equal(r.status, 200);
    await s.settle({ delayed: false });
    const follows = remote.receivedOfType("Follow");
    assert.equal(follows.length, before + 1);
    return follows[follows.length - 1]?.body.id as string;
  };
  const unfollow = async () => {
    assert.equal(
      (await s.request(`/api/v1/accounts/${bobId}/unfollow`, { method: "POST", token: alice.token })).status,
      200,
    );
    await s.settle({ delayed: false });
  };
  /** Hollo's shape: one id for every reply from this account, the Follow embedded. */
  const reply = (type: "Accept" | "Reject", followId: string) => ({
    ...remote.activity(bob, type, {
      object: { id: followId, type: "Follow", actor: alice.account.uri, object: bob.id },
    }),
    id: `${bob.id}#${type.toLowerCase()}s/follows/alice`,
  });

  it("takes an Accept of a second follow that carries the first Accept's id", async () => {
    const first = await follow();
    assert.equal((await relationship()).requested, true);
    assert.equal((await remote.send(aliceInbox, reply("Accept", first))).status, 202);
    assert.equal((await relationship()).following, true);
    await unfollow();
    assert.equal((await relationship()).following, false);
    const second = await follow();
    assert.notEqual(second, first);
    assert.equal((await relationship()).requested, true);
    assert.equal((await remote.send(aliceInbox, reply("Accept", second))).status, 202);
    const accepted = await relationship();
    assert.equal(accepted.following, true);
    assert.equal(accepted.requested, false);
    await unfollow();
  });

  it("takes a Reject of a later follow that carries an earlier Reject's id, and drops a resent one", async () => {
    const first = await follow();
    assert.equal((await remote.send(aliceInbox, reply("Reject", first))).status, 202);
    assert.equal((await relationship()).requested, false);
    const second = await follow();
    assert.equal((await relationship()).requested, true);
    assert.equal((await remote.send(aliceInbox, reply("Reject", second))).status, 202);
    assert.equal((await relationship()).requested, false);
    // The same reply to the same Follow again is remembered as processed.
    const again = await remote.send(aliceInbox, reply("Reject", second));
    assert.equal(again.status, 202);
    assert.match(await again.text(), /already been processed/);
  });
});
