import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket, type WsClient, type WsMessage } from "../helpers/streaming.ts";

/**
 * The streams a post from the inbox reaches. Its fan-out hands the streaming publish what the
 * request already read and stored (the status, its author, hashtags, media, the feeds holding
 * it: services/feeds/fan-out.ts), so these check that the events are those read from the
 * database would give: each stream once, none where the post does not belong.
 */
describe("streaming: posts that come to the inbox", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let dan: FakeActor;
  let carol: TestUser;
  let listId: string;
  let c: WsClient;

  const sendNote = async (actor: FakeActor, id: string, fields: Record<string, unknown> = {}) => {
    const note = remote.note(actor, id, fields);
    const res = await remote.send(`${s.url}/inbox`, remote.create(actor, note));
    assert.equal(res.status, 202, await res.text());
    const stored = await s.ctx.repos.statuses.getByUri(note.id);
    assert.ok(stored, "stored before the 202");
    return stored.id;
  };
  const about = (id: string) => (m: WsMessage) => m.event === "update" && m.payload?.includes(`"id":"${id}"`) === true;
  const on = (stream: string, id: string) => c.inbox.received.filter((m) => m.stream?.[0] === stream && about(id)(m));

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    dan = await remote.addActor("dan");
    carol = await s.createUser("carol");
    // The authors become known with a first post each, then carol follows both.
    await sendNote(bob, "hello");
    await sendNote(dan, "hello");
    for (const actor of [bob, dan]) {
      const account = await s.ctx.repos.accounts.getByUri(actor.id);
      assert.ok(account);
      await s.follow(carol, { account });
    }
    const dansAccount = await s.ctx.repos.accounts.getByUri(dan.id);
    const list = await s.request("/api/v1/lists", { token: carol.token, json: { title: "dan", exclusive: true } });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    listId = list.body.id;
    const added = await s.request(`/api/v1/lists/${listId}/accounts`, {
      token: carol.token,
      json: { account_ids: [dansAccount?.id] },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    c = await openSocket(s.url, { token: carol.token, query: { stream: "user" } });
    c.send({ type: "subscribe", stream: "hashtag", tag: "gannet" });
    c.send({ type: "subscribe", stream: "public:remote:media" });
    c.send({ type: "subscribe", stream: "list", list: listId });
    // The subscriptions are in place once a bad one is answered after them.
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "the subscriptions");
  });
  after(async () => {
    await c?.close();
    await s?.close();
    await remote?.close();
  });

  it("a post with a hashtag and an image reaches home, the hashtag and the media stream, each once", async () => {
    const plain = await sendNote(bob, "plain", { content: "<p>nothing special</p>" });
    const rich = await sendNote(bob, "rich", {
      content: `<p>look <a href="${remote.origin}/tags/Gannet" class="mention hashtag" rel="tag">#<span>Gannet</span></a></p>`,
      tag: [{ type: "Hashtag", href: `${remote.origin}/tags/Gannet`, name: "#Gannet" }],
      attachment: [
        { type: "Document", mediaType: "image/jpeg", url: `${remote.origin}/media/p.jpg`, width: 8, height: 6 },
      ],
    });
    await c.inbox.next((m) => m.stream?.[0] === "user" && about(rich)(m), "the post on home");
    await c.inbox.next((m) => m.stream?.[0] === "hashtag" && about(rich)(m), "the post on the hashtag stream");
    await c.inbox.next((m) => m.stream?.[0] === "public:remote:media" && about(rich)(m), "the post on media");
    await s.settle({ delayed: false, skip: ["media.cache-remote"], allowDead: true });
    for (const stream of ["user", "hashtag", "public:remote:media"]) assert.equal(on(stream, rich).length, 1, stream);
    // The plain post went home only (published before the later one, on the same connection).
    assert.equal(on("user", plain).length, 1);
    assert.equal(on("hashtag", plain).length, 0);
    assert.equal(on("public:remote:media", plain).length, 0);
  });

  it("a post by the member of an exclusive list reaches the list stream, not home", async () => {
    const inList = await sendNote(dan, "listed", { content: "<p>for the list</p>" });
    await c.inbox.next((m) => m.stream?.[0] === "list" && about(inList)(m), "the post on the list");
    const marker = await sendNote(bob, "marker", { content: "<p>marker</p>" });
    await c.inbox.next((m) => m.stream?.[0] === "user" && about(marker)(m), "the marker on home");
    await s.settle({ delayed: false });
    assert.equal(on("user", inList).length, 0, "not on home");
    assert.equal(on("list", inList).length, 1);
    assert.equal(on("list", marker).length, 0, "a non-member's post is not on the list");
  });
});
