import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const AP = { accept: "application/activity+json" };
const LD = { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' };
const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

describe("federation: content negotiation on profile and status URLs", () => {
  let s: TestServer;
  let base: string;
  let alice: TestUser;
  let pub: { id: string; uri: string; url: string };
  let priv: { id: string; uri: string; url: string };

  before(async () => {
    s = await startTestServer();
    base = s.ctx.config.baseUrl;
    alice = await s.createUser("alice");
    await s.ctx.repos.accounts.update(alice.account.id, { display_name: "Alice <b>A</b>", note: "<p>Bio here</p>" });
    const post = async (json: Record<string, unknown>) =>
      (await s.request("/api/v1/statuses", { method: "POST", token: alice.token, json })).body;
    pub = await post({ status: "A public <post>" });
    priv = await post({ status: "secret words", visibility: "private" });
  });
  after(() => s.close());

  it("answers the profile URL with the actor for ActivityPub clients and a page for browsers", async () => {
    for (const headers of [AP, LD]) {
      const r = await s.request("/@alice", { headers });
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /application\/activity\+json/);
      assert.equal(r.body.id, `${base}/users/alice`);
      assert.equal(r.body.type, "Person");
    }
    const page = await s.request<string>("/@alice", { headers: BROWSER });
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(page.body, /Alice &lt;b&gt;A&lt;\/b&gt;/);
    assert.match(page.body, /<p>Bio here<\/p>/);
    assert.match(page.body, /A public &lt;post&gt;/);
    assert.doesNotMatch(page.body, /secret words/);
    assert.match(
      page.body,
      new RegExp(`<link rel="alternate" type="application/activity\\+json" href="${base}/users/alice">`),
    );
    assert.match(page.headers.get("link") ?? "", /rel="alternate"; type="application\/activity\+json"/);
  });

  it("sends browsers from the actor URL to the profile page", async () => {
    const r = await s.request("/users/alice", { headers: BROWSER });
    assert.equal(r.status, 302);
    assert.equal(new URL(r.headers.get("location") ?? "", base).pathname, "/@alice");
  });

  it("answers status URLs with the note or a page", async () => {
    assert.equal(pub.url, `${base}/@alice/${pub.id}`);
    for (const path of [new URL(pub.uri).pathname, new URL(pub.url).pathname]) {
      const r = await s.request(path, { headers: AP });
      assert.equal(r.status, 200, path);
      assert.equal(r.body.type, "Note");
      assert.equal(r.body.id, pub.uri);
    }
    const page = await s.request<string>(new URL(pub.url).pathname, { headers: BROWSER });
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(page.body, /A public &lt;post&gt;/);
    const redirect = await s.request(new URL(pub.uri).pathname, { headers: BROWSER });
    assert.equal(redirect.status, 302);
    assert.equal(new URL(redirect.headers.get("location") ?? "", base).pathname, new URL(pub.url).pathname);
  });

  it("serves followers-only posts neither as JSON nor as a page to anonymous callers", async () => {
    for (const headers of [AP, BROWSER]) {
      for (const path of [new URL(priv.uri).pathname, new URL(priv.url).pathname]) {
        const r = await s.request<string>(path, { headers });
        const text = typeof r.body === "string" ? r.body : JSON.stringify(r.body);
        assert.doesNotMatch(text, /secret words/, `${path} ${headers.accept}`);
        if (path === new URL(priv.url).pathname || headers === AP) assert.equal(r.status, 404, path);
      }
    }
  });

  it("answers 404 for unknown accounts and 410 for deleted posts", async () => {
    assert.equal((await s.request("/@nobody", { headers: BROWSER })).status, 404);
    assert.equal((await s.request("/@nobody", { headers: AP })).status, 404);
    const gone = (await s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "bye" } }))
      .body;
    assert.equal(
      (await s.request(`/api/v1/statuses/${gone.id}`, { method: "DELETE", token: alice.token })).status,
      200,
    );
    await s.settle({ delayed: false });
    assert.equal((await s.request(new URL(gone.url).pathname, { headers: BROWSER })).status, 410);
  });
});
