import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createStreamingAPIClient } from "masto";
import { hubFor } from "../../src/http/streaming/hub.ts";
import { createApplication, issueToken } from "../../src/services/oauth/tokens.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket, openSse, type SseClient, type WsClient } from "../helpers/streaming.ts";

describe("streaming: the user, notification, list and direct streams and their events", () => {
  let s: TestServer;
  let n = 0;
  const sockets: WsClient[] = [];
  const readers: SseClient[] = [];
  const user = (name: string, scopes?: string) => s.createUser(`${name}${++n}`, scopes ? { scopes } : {});
  const socket = async (u: TestUser, stream: Record<string, string>) => {
    const c = await openSocket(s.url, { token: u.token, query: stream });
    sockets.push(c);
    c.send({ type: "subscribe", stream: "nonsense" });
    await c.inbox.next((m) => m.error !== undefined, "the subscription");
    return c;
  };
  const sse = async (path: string, token: string) => {
    const c = await openSse(s.url, path, token);
    readers.push(c);
    assert.equal(c.status, 200, c.body);
    return c;
  };
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const call = async (u: TestUser, path: string, json: Record<string, unknown> = {}, method = "POST") => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.ok(r.status < 300, `${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const has = (id: string) => (m: { payload?: string }) => m.payload?.includes(`"id":"${id}"`) === true;

  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    for (const c of sockets) await c.close();
    for (const c of readers) c.close();
    await s.close();
  });

  it("filters_changed: exactly one per request, however many keywords it edits", async () => {
    const owner = await user("owner");
    const friend = await user("friend");
    await s.follow(owner, friend);
    const c = await socket(owner, { stream: "user" });
    const f = await call(owner, "/api/v2/filters", {
      title: "many",
      context: ["home"],
      keywords_attributes: [{ keyword: "a" }, { keyword: "b" }, { keyword: "c" }],
    });
    await call(
      owner,
      `/api/v2/filters/${f.id}`,
      {
        title: "many!",
        keywords_attributes: [
          { id: f.keywords[0].id, keyword: "A" },
          { id: f.keywords[1].id, _destroy: true },
          { keyword: "d" },
          { keyword: "e" },
        ],
      },
      "PUT",
    );
    // A later post by a followed account comes on the same channel after both.
    await s.settle();
    const marker = await post(friend, { status: "marker" });
    await c.inbox.next(has(marker.id), "the marker");
    const changes = c.inbox.received.filter((m) => m.event === "filters_changed");
    assert.equal(changes.length, 2);
    assert.deepEqual(changes[0], { stream: ["user"], event: "filters_changed" });
    // SSE writes Mastodon's `undefined` data.
    const reader = await sse("/api/v1/streaming/user", owner.token);
    await call(owner, `/api/v2/filters/${f.id}`, {}, "DELETE");
    const e = await reader.event("filters_changed");
    assert.equal(e.data, "undefined");
  });

  it("notifications on `user` need read:notifications; `delete` reaches the home stream", async () => {
    const reader = await user("reader", "read:statuses read:accounts");
    const full = await user("full");
    const author = await user("author");
    await s.follow(reader, author);
    await s.follow(full, author);
    const limited = await socket(reader, { stream: "user" });
    const everything = await socket(full, { stream: "user" });
    const mention = await post(author, {
      status: `hi @${reader.account.username} and @${full.account.username}`,
    });
    const note = await everything.inbox.next((m) => m.event === "notification", "the notification");
    const json = JSON.parse(note.payload ?? "{}");
    assert.equal(json.type, "mention");
    assert.equal(json.status.id, mention.id);
    assert.equal(json.account.id, author.account.id);
    await limited.inbox.next(has(mention.id), "the post at home");
    await s.settle();
    await call(author, `/api/v1/statuses/${mention.id}`, {}, "DELETE");
    const del = await limited.inbox.next((m) => m.event === "delete", "the delete");
    assert.deepEqual(del, { stream: ["user"], event: "delete", payload: mention.id });
    assert.ok(!limited.inbox.received.some((m) => m.event === "notification"));
  });

  it("notifications_merged when notification requests are accepted", async () => {
    const owner = await user("owner");
    const stranger = await user("stranger");
    await call(owner, "/api/v2/notifications/policy", { for_not_following: "filter" }, "PATCH");
    const c = await socket(owner, { stream: "user" });
    await post(stranger, { status: `hello @${owner.account.username}` });
    await s.settle();
    const requests = await s.request("/api/v1/notifications/requests", { token: owner.token });
    assert.equal(requests.body.length, 1);
    await call(owner, `/api/v1/notifications/requests/${requests.body[0].id}/accept`);
    const merged = await c.inbox.next((m) => m.event === "notifications_merged", "notifications_merged");
    assert.equal(merged.payload, undefined);
    // The filtered mention was never streamed.
    assert.ok(!c.inbox.received.some((m) => m.event === "notification"));
  });

  it("SSE: list and direct streams, status.update on a hashtag stream", async () => {
    const owner = await user("owner");
    const member = await user("member");
    await s.follow(owner, member);
    const list = await call(owner, "/api/v1/lists", { title: "friends" });
    await call(owner, `/api/v1/lists/${list.id}/accounts`, { account_ids: [member.account.id] });
    const listReader = await sse(`/api/v1/streaming/list?list=${list.id}`, owner.token);
    const direct = await sse("/api/v1/streaming/direct", owner.token);
    const tag = await sse("/api/v1/streaming/hashtag?tag=news", owner.token);
    const p = await post(member, { status: "fresh #news" });
    await listReader.event("update", (d) => JSON.parse(d).id === p.id);
    await tag.event("update", (d) => JSON.parse(d).id === p.id);
    await call(member, `/api/v1/statuses/${p.id}`, { status: "fresher #news" }, "PUT");
    const edited = await tag.event("status.update", (d) => JSON.parse(d).id === p.id);
    assert.equal(JSON.parse(edited.data).content.includes("fresher"), true);
    await listReader.event("status.update", (d) => JSON.parse(d).id === p.id);
    const dm = await post(member, { status: `secret @${owner.account.username}`, visibility: "direct" });
    const conv = await direct.event("conversation");
    assert.equal(JSON.parse(conv.data).last_status.id, dm.id);
    const notOwned = await openSse(s.url, `/api/v1/streaming/list?list=${list.id}`, member.token);
    assert.equal(notOwned.status, 401);
    assert.deepEqual(JSON.parse(notOwned.body), { error: "Not authorized to stream this list" });
  });

  it("revoking a token closes its WebSocket and SSE streams (`kill`), not those of other tokens", async () => {
    const owner = await user("owner");
    const { application, clientSecret } = await createApplication(s.ctx, {
      name: "revocable",
      redirectUris: ["urn:ietf:wg:oauth:2.0:oob"],
      scopes: ["read"],
    });
    const { accessToken } = await issueToken(s.ctx, {
      applicationId: application.id,
      userId: owner.user.id,
      scopes: ["read"],
    });
    const doomed = await openSocket(s.url, { token: accessToken, query: { stream: "user" } });
    sockets.push(doomed);
    const closed = new Promise<void>((resolve) => doomed.ws.once("close", () => resolve()));
    const doomedSse = await sse("/api/v1/streaming/public", accessToken);
    const sseEnded = doomedSse.inbox.ended();
    const survivor = await socket(owner, { stream: "user" });
    const r = await s.request("/oauth/revoke", {
      form: { client_id: application.clientId, client_secret: clientSecret, token: accessToken },
    });
    assert.equal(r.status, 200);
    await closed;
    await sseEnded;
    assert.equal(survivor.ws.readyState, survivor.ws.OPEN);
  });

  it("masto.js's streaming client: public:local and the user stream", async () => {
    const viewer = await user("viewer");
    const author = await user("author");
    await s.follow(viewer, author);
    const instance = await s.request("/api/v2/instance");
    const streaming = createStreamingAPIClient({
      streamingApiUrl: instance.body.configuration.urls.streaming,
      accessToken: viewer.token,
      retry: false,
    });
    try {
      const local = streaming.public.local.subscribe();
      const home = streaming.user.subscribe();
      let posted: (id: string) => void = () => {};
      const postId = new Promise<string>((resolve) => {
        posted = resolve;
      });
      // Iterating sends masto's subscribe message; events before the post are skipped.
      const seen = async (sub: AsyncIterable<{ event: string; payload?: unknown }>, what: string) => {
        for await (const e of sub) {
          if (e.event === "update" && (e.payload as { id: string }).id === (await postId)) {
            return e.payload as Record<string, unknown>;
          }
        }
        throw new Error(`${what} ended without the post`);
      };
      const both = Promise.all([seen(local, "public:local"), seen(home, "user")]);
      const hub = hubFor(s.ctx);
      for (const channel of ["timeline:public:local", `timeline:${viewer.account.id}`]) {
        while (hub.listeners(channel) === 0) await new Promise((r) => setTimeout(r, 10));
        await hub.ready(channel);
      }
      const p = await post(author, { status: "hello masto" });
      posted(p.id);
      const [a, b] = await both;
      assert.equal(a.content, "<p>hello masto</p>");
      assert.equal((b.account as { id: string }).id, author.account.id);
      local.unsubscribe();
      home.unsubscribe();
    } finally {
      streaming.close();
    }
  });
});
