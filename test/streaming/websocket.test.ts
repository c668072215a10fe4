import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket, type WsClient } from "../helpers/streaming.ts";

describe("streaming: the WebSocket endpoint", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const open: WsClient[] = [];
  const socket = async (opts: Parameters<typeof openSocket>[1]) => {
    const c = await openSocket(s.url, opts);
    open.push(c);
    return c;
  };
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(async () => {
    for (const c of open) await c.close();
    await s.close();
  });

  it("answers the health check", async () => {
    const r = await s.request("/api/v1/streaming/health");
    assert.equal(r.status, 200);
    assert.equal(r.body, "OK");
  });

  it("refuses the handshake with 401 without a token, with a bad one, or with an app token", async () => {
    for (const token of [undefined, "not-a-token", await s.appToken("read")]) {
      await assert.rejects(
        openSocket(s.url, { token, query: { stream: "public" } }),
        (e: { statusCode?: number; headers?: Record<string, string> }) => {
          assert.equal(e.statusCode, 401);
          assert.match(String(e.headers?.["x-error-message"]), /access token/);
          return true;
        },
      );
    }
  });

  it("takes the token from the header, the query or the protocol (echoed back), and `stream` subscribes", async () => {
    const viaHeader = await socket({ token: bob.token, via: "header", query: { stream: "public:local" } });
    const viaQuery = await socket({ token: bob.token, via: "query", query: { stream: "public:local" } });
    const viaProtocol = await socket({ token: bob.token, via: "protocol", query: { stream: "public:local" } });
    assert.equal(viaProtocol.protocol, bob.token);
    // Subscriptions are in place once the server answers a later message on the same socket.
    for (const c of [viaHeader, viaQuery, viaProtocol]) {
      c.send({ type: "subscribe", stream: "nonsense" });
      await c.inbox.next((m) => m.error !== undefined, "error");
    }
    const status = await post(alice, { status: "hello streaming" });
    for (const c of [viaHeader, viaQuery, viaProtocol]) {
      const m = await c.event("update", (p) => JSON.parse(p ?? "{}").id === status.id, "the new post");
      assert.deepEqual(m.stream, ["public:local"]);
      const json = JSON.parse(m.payload ?? "{}");
      assert.equal(json.content, "<p>hello streaming</p>");
      assert.equal(json.account.id, alice.account.id);
      assert.equal(json.favourited, false);
    }
  });

  it("several subscribe and unsubscribe messages on one socket", async () => {
    const c = await socket({ token: bob.token });
    // Another client on the hashtag: what it gets, `c` would get in the same turn if still subscribed.
    const witness = await socket({ token: bob.token, query: { stream: "hashtag", tag: "cats" } });
    c.send({ type: "subscribe", stream: "hashtag", tag: "Cats" });
    c.send({ type: "subscribe", stream: "public" });
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "error");
    const first = await post(alice, { status: "about #cats" });
    const isFirst = (m: { payload?: string }) => JSON.parse(m.payload ?? "{}").id === first.id;
    const tagged = await c.inbox.next((m) => m.stream?.[0] === "hashtag" && isFirst(m), "hashtag update");
    assert.deepEqual(tagged.stream, ["hashtag", "Cats"]);
    await c.inbox.next((m) => m.stream?.[0] === "public" && isFirst(m), "public update");

    c.send({ type: "unsubscribe", stream: "hashtag", tag: "cats" });
    const from = c.inbox.received.length;
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "second error", from);
    const second = await post(alice, { status: "more #cats" });
    const isSecond = (m: { payload?: string }) => JSON.parse(m.payload ?? "{}").id === second.id;
    await witness.inbox.next(isSecond, "the witness's hashtag update");
    await c.inbox.next((m) => m.stream?.[0] === "public" && isSecond(m), "public after unsubscribing", from);
    assert.ok(!c.inbox.received.some((m) => m.stream?.[0] === "hashtag" && isSecond(m)));
  });

  it("answers bad subscriptions with Mastodon's errors and statuses", async () => {
    const noStatusesScope = await s.createUser("carol", { scopes: "read:accounts write" });
    const c = await socket({ token: noStatusesScope.token });
    const ask = async (msg: Record<string, unknown>) => {
      const from = c.inbox.received.length;
      c.send({ type: "subscribe", ...msg });
      return c.inbox.next((m) => m.error !== undefined, `error for ${JSON.stringify(msg)}`, from);
    };
    assert.deepEqual(await ask({ stream: "nonsense" }), { error: "Unknown stream type", status: 400 });
    assert.deepEqual(await ask({ stream: "hashtag" }), { error: "Missing tag name parameter", status: 400 });
    assert.deepEqual(await ask({ stream: "list" }), {
      error: "Access token does not have the required scopes",
      status: 401,
    });
    assert.deepEqual(await ask({ stream: "user" }), {
      error: "Access token does not have the required scopes",
      status: 401,
    });
    const b = await socket({ token: bob.token });
    const list = await s.request("/api/v1/lists", { method: "POST", token: alice.token, json: { title: "mine" } });
    b.send({ type: "subscribe", stream: "list", list: list.body.id });
    assert.deepEqual(await b.inbox.next((m) => m.error !== undefined, "list error"), {
      error: "Not authorized to stream this list",
      status: 401,
    });
    b.send({ type: "subscribe", stream: "list" });
    assert.deepEqual(await b.inbox.next((m) => m.error === "Missing list name parameter", "missing list"), {
      error: "Missing list name parameter",
      status: 400,
    });
    // Not JSON, and unknown types, are ignored; a binary frame closes with 1003.
    b.ws.send("{nope");
    b.send({ type: "dance", stream: "public" });
    const closed = new Promise<number>((resolve) => b.ws.once("close", (code) => resolve(code)));
    b.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    assert.equal(await closed, 1003);
  });

  it("deletes reach the public stream as a bare id", async () => {
    const c = await socket({ token: bob.token, query: { stream: "public" } });
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "error");
    const status = await post(alice, { status: "soon gone" });
    await c.event("update", (p) => JSON.parse(p ?? "{}").id === status.id);
    const r = await s.request(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: alice.token });
    assert.equal(r.status, 200);
    const m = await c.event("delete", (p) => p === status.id, "delete");
    assert.deepEqual(m, { stream: ["public"], event: "delete", payload: status.id });
  });

  it("public streams follow the live feed access settings; staff who may view feeds keep them", async () => {
    // The status of the first error on a socket subscribed to `stream`: 403 when that stream was
    // refused; else the 400 of the unknown stream subscribed after it (handled in turn).
    const refusedWith = async (token: string, stream: string) => {
      const c = await socket({ token, query: { stream } });
      c.send({ type: "subscribe", stream: "no-such-stream" });
      const m = await c.inbox.next((x) => x.error !== undefined, "an error");
      await c.close();
      return m.status;
    };
    const admin = await s.createUser("feeds_admin", { role: "Admin" });
    try {
      await s.ctx.repos.settings.set("local_live_feed_access", "disabled");
      assert.equal(await refusedWith(alice.token, "public:local"), 403);
      assert.equal(await refusedWith(alice.token, "public:local:media"), 403);
      // The remote part is still open, so `public` narrows to it rather than refusing.
      assert.equal(await refusedWith(alice.token, "public"), 400);
      // The API agrees: nothing local for a user, the local part for an admin (View feeds).
      const none = await s.request("/api/v1/timelines/public?local=true", { token: alice.token });
      assert.deepEqual([none.status, none.body], [200, []]);
      await post(bob, { status: "local and public" });
      const staff = await s.request("/api/v1/timelines/public?local=true", { token: admin.token });
      assert.equal(staff.status, 200);
      assert.ok(staff.body.length > 0, "staff with View feeds read a disabled feed");
      const c = await socket({ token: admin.token, query: { stream: "public:local" } });
      const status = await post(bob, { status: "seen by staff live" });
      await c.event("update", (p) => JSON.parse(p ?? "{}").id === status.id, "update");

      await s.ctx.repos.settings.set("remote_live_feed_access", "disabled");
      assert.equal(await refusedWith(alice.token, "public"), 403);
      assert.equal(await refusedWith(alice.token, "public:remote"), 403);
    } finally {
      await s.ctx.repos.settings.set("local_live_feed_access", "public");
      await s.ctx.repos.settings.set("remote_live_feed_access", "public");
    }
    assert.equal(await refusedWith(alice.token, "public:local"), 400);
  });
});
