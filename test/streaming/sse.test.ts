import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSse, type SseClient } from "../helpers/streaming.ts";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("streaming: server-sent events", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const open: SseClient[] = [];
  const sse = async (path: string, token?: string) => {
    const c = await openSse(s.url, path, token);
    open.push(c);
    return c;
  };
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const withId = (id: string) => (data: string) => JSON.parse(data).id === id;
  /** A remote account's public post, fanned out as the inbox will. */
  const remotePost = async (text: string) => {
    const now = new Date().toISOString();
    const accountId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: accountId,
      username: `r${accountId}`,
      domain: "remote.example",
      uri: `https://remote.example/users/r${accountId}`,
      url: `https://remote.example/@r${accountId}`,
      created_at: now,
      updated_at: now,
    });
    const id = s.ctx.ids.next();
    await s.ctx.repos.statuses.insert({
      id,
      uri: `https://remote.example/statuses/${id}`,
      url: null,
      account_id: accountId,
      text: "",
      content: `<p>${text}</p>`,
      visibility: "public",
      sensitive: false,
      local: false,
      created_at: now,
      updated_at: now,
    });
    await s.ctx.queue.enqueue("feeds.fan-out", { statusId: id });
    return id;
  };

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(async () => {
    for (const c of open) c.close();
    await s.close();
  });

  it("refuses without a token (401) or with a bad one, as JSON", async () => {
    const none = await sse("/api/v1/streaming/public");
    assert.equal(none.status, 401);
    assert.deepEqual(JSON.parse(none.body), { error: "Missing access token" });
    const bad = await sse("/api/v1/streaming/public", "nope");
    assert.equal(bad.status, 401);
    assert.deepEqual(JSON.parse(bad.body), { error: "Invalid access token" });
    const app = await sse("/api/v1/streaming/public", await s.appToken("read"));
    assert.equal(app.status, 401);
    const noTag = await sse("/api/v1/streaming/hashtag", bob.token);
    assert.equal(noTag.status, 400);
    assert.deepEqual(JSON.parse(noTag.body), { error: "Missing tag name parameter" });
  });

  it("streams public, local, remote and media-only posts with the right content type", async () => {
    const all = await sse("/api/v1/streaming/public", bob.token);
    const local = await sse("/api/v1/streaming/public/local", bob.token);
    const remote = await sse(`/api/v1/streaming/public/remote?access_token=${bob.token}`);
    const media = await sse("/api/v1/streaming/public/local?only_media=true", bob.token);
    const mediaPath = await sse("/api/v1/streaming/public/media", bob.token);
    assert.equal(all.status, 200);
    assert.match(String(all.headers["content-type"]), /^text\/event-stream/);
    assert.equal(all.headers["cache-control"], "no-store");
    const upload = new FormData();
    upload.append(
      "file",
      new Blob([Buffer.from(PNG.split(",")[1] as string, "base64")], { type: "image/png" }),
      "a.png",
    );
    const m = await s.request("/api/v2/media", { method: "POST", token: alice.token, multipart: upload });
    assert.equal(m.status, 200, JSON.stringify(m.body));
    const plain = await post(alice, { status: "plain words" });
    const pictured = await post(alice, { status: "a picture", media_ids: [m.body.id] });
    const far = await remotePost("from afar");
    await all.event("update", withId(plain.id));
    await all.event("update", withId(far));
    const shown = await local.event("update", withId(pictured.id));
    assert.equal(JSON.parse(shown.data).media_attachments.length, 1);
    await remote.event("update", withId(far));
    await media.event("update", withId(pictured.id));
    await mediaPath.event("update", withId(pictured.id));
    // What each stream got, in order: the media streams never the plain post, local never the remote one.
    await s.settle();
    const marker = await post(alice, { status: "marker", media_ids: [] });
    await local.event("update", withId(marker.id));
    const pictureMarker = await s.request("/api/v2/media", { method: "POST", token: alice.token, multipart: upload });
    const last = await post(alice, { status: "last", media_ids: [pictureMarker.body.id] });
    await media.event("update", withId(last.id));
    assert.ok(!media.inbox.received.some((e) => withId(plain.id)(e.data)));
    assert.ok(!local.inbox.received.some((e) => withId(far)(e.data)));
    assert.ok(!remote.inbox.received.some((e) => withId(plain.id)(e.data)));
    assert.ok(all.raw().startsWith(":)\n"));
    assert.match(all.raw(), /event: update\ndata: \{/);
  });

  it("hashtag streams, all and local", async () => {
    const tag = await sse("/api/v1/streaming/hashtag?tag=Birds", bob.token);
    const tagLocal = await sse("/api/v1/streaming/hashtag/local?tag=birds", bob.token);
    const p = await post(alice, { status: "look #birds" });
    await tag.event("update", withId(p.id));
    await tagLocal.event("update", withId(p.id));
  });

  it("the user stream: home updates, notifications; user/notification: notifications only", async () => {
    await s.follow(bob, alice);
    const user = await sse("/api/v1/streaming/user", bob.token);
    const notes = await sse("/api/v1/streaming/user/notification", bob.token);
    const p = await post(alice, { status: "for my followers", visibility: "private" });
    const home = await user.event("update", withId(p.id));
    assert.equal(JSON.parse(home.data).visibility, "private");
    const mention = await post(alice, { status: "hi @bob" });
    const n = await notes.event("notification", (d) => JSON.parse(d).status?.id === mention.id);
    assert.equal(JSON.parse(n.data).type, "mention");
    await user.event("notification", (d) => JSON.parse(d).status?.id === mention.id);
    assert.ok(!notes.inbox.received.some((e) => e.event === "update"));
  });

  it("a heartbeat comment comes every 15 s", async () => {
    const c = await sse("/api/v1/streaming/public", bob.token);
    const deadline = Date.now() + 30_000;
    while (!c.raw().includes(":thump\n") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.match(c.raw(), /^:\)\n(.|\n)*:thump\n/);
  });
});
