import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAnnouncement, deleteAnnouncement } from "../../src/services/announcements/manage.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { openSocket, openSse, type SseClient, type WsClient } from "../helpers/streaming.ts";

describe("streaming: announcements on the user stream", () => {
  let s: TestServer;
  const sockets: WsClient[] = [];
  const readers: SseClient[] = [];

  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    for (const c of sockets) await c.close();
    for (const c of readers) c.close();
    await s.close();
  });

  it("sends announcement, announcement.reaction and announcement.delete (and no reaction event for a deletion) to WebSocket and SSE clients", async () => {
    const alice = await s.createUser("alice");
    const bob = await s.createUser("bob", { scopes: "read:statuses write:favourites" });
    const ws = await openSocket(s.url, { token: bob.token, query: { stream: "user" } });
    sockets.push(ws);
    // An error answer to a later message means the stream before it is subscribed.
    ws.send({ type: "subscribe", stream: "nonsense" });
    await ws.inbox.next((m) => m.error !== undefined, "the subscription");
    const sse = await openSse(s.url, "/api/v1/streaming/user", alice.token);
    readers.push(sse);
    assert.equal(sse.status, 200);

    const a = await createAnnouncement(s.ctx, {
      text: "Hello #everyone",
      startsAt: null,
      endsAt: null,
      allDay: false,
      publish: true,
    });
    const m = await ws.event("announcement");
    assert.deepEqual(m.stream, ["user"]);
    const entity = JSON.parse(m.payload as string);
    assert.equal(entity.id, a.id);
    assert.equal(
      entity.content,
      `<p>Hello <a href="${s.ctx.config.baseUrl}/tags/everyone" class="mention hashtag" rel="tag">#<span>everyone</span></a></p>`,
    );
    assert.equal("read" in entity, false);
    assert.equal(JSON.parse((await sse.event("announcement")).data).id, a.id);

    const r = await s.request(`/api/v1/announcements/${a.id}/reactions/${encodeURIComponent("🎉")}`, {
      method: "PUT",
      token: bob.token,
    });
    assert.equal(r.status, 200);
    const reaction = await ws.event("announcement.reaction");
    assert.deepEqual(JSON.parse(reaction.payload as string), { name: "🎉", count: 1, announcement_id: a.id });
    assert.deepEqual(JSON.parse((await sse.event("announcement.reaction")).data), {
      name: "🎉",
      count: 1,
      announcement_id: a.id,
    });

    const reactionsBefore = ws.inbox.received.filter((x) => x.event === "announcement.reaction").length;
    await deleteAnnouncement(s.ctx, a.id);
    const gone = await ws.event("announcement.delete");
    // The bare id, not JSON.
    assert.equal(gone.payload, a.id);
    assert.equal((await sse.event("announcement.delete")).data, a.id);
    // A later event on the same stream shows nothing else came between.
    const b = await createAnnouncement(s.ctx, {
      text: "next",
      startsAt: null,
      endsAt: null,
      allDay: false,
      publish: true,
    });
    await ws.event("announcement", (p) => p?.includes(`"id":"${b.id}"`) === true);
    assert.equal(ws.inbox.received.filter((x) => x.event === "announcement.reaction").length, reactionsBefore);
  });
});
