import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("remote accounts' and posts' web URLs", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let alice: TestUser;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  /** Posts a note of `name` (an actor whose document has `actorUrl`) with `noteUrl`; answers both entities. */
  const served = async (name: string, actorUrl: string, noteUrl: string) => {
    const actor = await remote.addActor(name, { url: actorUrl });
    const note = remote.note(actor, "1", { url: noteUrl });
    assert.equal((await remote.send(`${s.url}/inbox`, remote.create(actor, note))).status, 202);
    await s.settle({ delayed: false });
    const stored = await s.ctx.repos.statuses.getByUri(note.id);
    assert.ok(stored, "the post is stored");
    const status = await s.request(`/api/v1/statuses/${stored.id}`, { token: alice.token });
    assert.equal(status.status, 200);
    const account = await s.request(`/api/v1/accounts/${status.body.account.id}`, { token: alice.token });
    return { actor, note, status: status.body, account: account.body };
  };

  it("keeps http(s) URLs on the actor's own host", async () => {
    const { status, account } = await served("bob", `${remote.origin}/@bob`, `${remote.origin}/@bob/1`);
    assert.equal(account.url, `${remote.origin}/@bob`);
    assert.equal(status.url, `${remote.origin}/@bob/1`);
    assert.equal(status.account.url, `${remote.origin}/@bob`);
  });

  it("serves the id instead of a javascript: URL", async () => {
    const { actor, note, status, account } = await served("mallory", "javascript:alert(1)", "javascript:alert(2)");
    assert.equal(account.url, actor.id);
    assert.equal(status.url, note.id);
  });

  it("serves the id instead of a URL on another host", async () => {
    const { actor, note, status, account } = await served(
      "phisher",
      "https://bank.example/login",
      "https://bank.example/login?next=1",
    );
    assert.equal(account.url, actor.id);
    assert.equal(status.url, note.id);
    // Another port of the same address is another server, too.
    const other = await served("porter", "http://127.0.0.1:1/@porter", "http://127.0.0.1:1/@porter/1");
    assert.equal(other.account.url, other.actor.id);
    assert.equal(other.status.url, other.note.id);
  });
});
