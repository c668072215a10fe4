import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { inboxThreadsOf } from "../../src/inbox-threads/pool.ts";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket, type WsClient, type WsMessage } from "../helpers/streaming.ts";

// INBOX_THREADS: inbox POSTs processed by worker threads with their own database connection
// (src/inbox-threads/). What a thread writes must show at once on the main thread, in pages
// it already keeps, and what it publishes must reach the main thread's streams.
describe("inbox: activities processed by inbox threads", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let mallory: FakeActor;
  let carol: TestUser;
  let c: WsClient;
  let inbox: string;

  const homeIds = async () => {
    const res = await s.request<Array<{ id: string; uri: string }>>("/api/v1/timelines/home?limit=40", {
      token: carol.token,
    });
    assert.equal(res.status, 200);
    return res.body.map((st) => st.uri);
  };

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1", INBOX_THREADS: "2" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    mallory = await remote.addActor("mallory");
    carol = await s.createUser("carol");
    inbox = `${s.url}/inbox`;
    await inboxThreadsOf(s.ctx)?.ready();
    assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "hello")))).status, 202);
    const account = await s.ctx.repos.accounts.getByUri(bob.id);
    assert.ok(account, "bob known to the main thread once the thread stored him");
    await s.follow(carol, { account });
    c = await openSocket(s.url, { token: carol.token, query: { stream: "user" } });
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "the subscription");
  });
  after(async () => {
    await c?.close();
    await s?.close();
    await remote?.close();
  });

  it("runs with its threads", () => {
    assert.ok(inboxThreadsOf(s.ctx), "the pool is there");
  });

  it("shows a post processed in a thread at once in a home timeline the main thread keeps, and on the stream", async () => {
    // The page is kept by the main thread (asked twice: the second is served from what it keeps).
    const before = await homeIds();
    assert.deepEqual(await homeIds(), before);
    const note = remote.note(bob, "from-a-thread");
    assert.equal((await remote.send(inbox, remote.create(bob, note))).status, 202);
    // No wait: the next page already holds it.
    assert.equal((await homeIds())[0], note.id);
    const about = (m: WsMessage) => m.event === "update" && m.payload?.includes(note.id) === true;
    await c.inbox.next((m) => m.stream?.[0] === "user" && about(m), "the post on carol's home stream");
  });

  it("refuses unsigned, forged and wrong-key activities, and counts the failures per address", async () => {
    assert.equal(s.ctx.inboxThrottle.size, 0, "no failure counted yet");
    const forged = remote.note(bob, "forged");
    const tamper = (body: string) => body.replace("<p>Hello</p>", "<p>Send me money</p>");
    assert.equal((await remote.send(inbox, remote.create(bob, forged), { tamper })).status, 401);
    const impersonated = remote.note(bob, "impersonated");
    assert.equal((await remote.send(inbox, remote.create(bob, impersonated), { signer: mallory })).status, 401);
    const unsigned = remote.note(bob, "unsigned");
    assert.equal((await remote.send(inbox, remote.create(bob, unsigned), { unsigned: true })).status, 401);
    for (const n of [forged, impersonated, unsigned]) {
      assert.equal(await s.ctx.repos.statuses.getByUri(n.id), undefined, n.id);
    }
    // The threads' refusals counted by the main thread's throttle, which refuses before handing over.
    assert.equal(s.ctx.inboxThrottle.size, 1);
  });

  it("processes activities in flight together across its threads, each once", async () => {
    const notes = Array.from({ length: 20 }, (_, i) => remote.note(bob, `burst-${i}`));
    const answers = await Promise.all(notes.map((n) => remote.send(inbox, remote.create(bob, n))));
    assert.deepEqual(
      answers.map((a) => a.status),
      notes.map(() => 202),
    );
    const home = await homeIds();
    for (const n of notes) assert.ok(home.includes(n.id), n.id);
    const account = await s.ctx.repos.accounts.getByUri(bob.id);
    assert.equal(account?.statusesCount, 22);
  });
});
