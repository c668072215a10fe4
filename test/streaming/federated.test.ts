import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket, type WsClient, type WsMessage } from "../helpers/streaming.ts";

const ALLOW = { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" };

/** A post made on one Gannet server streams on another that federates with it: update, edit, delete. */
describe("streaming: posts from another server", () => {
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser; // on A
  let bob: TestUser; // on B, follows alice
  let c: WsClient | undefined;

  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await a.settle({ delayed: false });
      await b.settle({ delayed: false });
    }
  };
  const api = async (s: TestServer, u: TestUser, path: string, json: unknown = {}, method = "POST") => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.ok(r.status < 300, `${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  before(async () => {
    [a, b] = await Promise.all([startTestServer(ALLOW), startTestServer(ALLOW)]);
    alice = await a.createUser("alice");
    bob = await b.createUser("bob");
    const handle = encodeURIComponent(`@alice@${a.ctx.config.localDomain}`);
    const found = await b.request(`/api/v2/search?q=${handle}&resolve=true&type=accounts`, { token: bob.token });
    assert.equal(found.status, 200, JSON.stringify(found.body));
    await api(b, bob, `/api/v1/accounts/${found.body.accounts[0].id}/follow`);
    await settle();
  });
  after(async () => {
    await c?.close();
    await Promise.all([a.close(), b.close()]);
  });

  it("B's public:remote and user streams get A's post, its edit and its delete", async () => {
    // The advertised base (instance v1) is where the socket is opened.
    const instance = await b.request("/api/v1/instance");
    assert.match(instance.body.urls.streaming_api, /^ws:\/\//);
    c = await openSocket(instance.body.urls.streaming_api.replace(/^ws/, "http"), {
      token: bob.token,
      query: { stream: "public:remote" },
    });
    c.send({ type: "subscribe", stream: "user" });
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "the subscriptions");
    const p = await api(a, alice, "/api/v1/statuses", { status: "hello from A" });
    await settle();
    const local = await b.ctx.repos.statuses.getByUri(p.uri);
    assert.ok(local, "B stored the post");
    const mine = (m: WsMessage) => m.payload?.includes(`"id":"${local.id}"`) === true;
    const onPublic = await c.inbox.next((m) => m.stream?.[0] === "public:remote" && mine(m), "public:remote");
    await c.inbox.next((m) => m.stream?.[0] === "user" && mine(m), "home");
    assert.equal(JSON.parse(onPublic.payload ?? "{}").content, "<p>hello from A</p>");
    await api(a, alice, `/api/v1/statuses/${p.id}`, { status: "hello again from A" }, "PUT");
    await settle();
    const edit = await c.inbox.next((m) => m.event === "status.update" && mine(m), "the edit");
    assert.match(JSON.parse(edit.payload ?? "{}").content, /hello again/);
    await api(a, alice, `/api/v1/statuses/${p.id}`, {}, "DELETE");
    await settle();
    await c.inbox.next((m) => m.event === "delete" && m.payload === local.id, "the delete");
  });
});
