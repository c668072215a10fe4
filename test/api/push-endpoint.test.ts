import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { newSubscriptionKeys, type PushReceiver, startPushReceiver } from "../helpers/push-receiver.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// Mastodon stores the endpoint verbatim; clients compare the one they get back with their own.
describe("Web Push endpoints are kept exactly as sent", () => {
  let s: TestServer;
  let rx: PushReceiver;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
    rx = await startPushReceiver();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(async () => {
    await s.close();
    await rx.close();
  });

  const subscribe = (endpoint: string) => {
    const keys = newSubscriptionKeys();
    return s.request("/api/v1/push/subscription", {
      method: "POST",
      token: alice.token,
      json: {
        subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
        data: { alerts: { mention: true } },
      },
    });
  };

  it("answers and stores the endpoint unnormalised", async () => {
    for (const endpoint of [
      "https://example.com",
      "https://Push.Example.NET:443/a/../b?x=1#frag",
      "https://example.com/%7euser/ü",
    ]) {
      const r = await subscribe(endpoint);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.endpoint, endpoint);
      const got = await s.request("/api/v1/push/subscription", { token: alice.token });
      assert.equal(got.body.endpoint, endpoint);
    }
  });

  it("still refuses what is not an http(s) URL", async () => {
    for (const endpoint of ["example.com", "ftp://example.com/x", "javascript:alert(1)", "https://"]) {
      const r = await subscribe(endpoint);
      assert.equal(r.status, 422, `${endpoint}: ${JSON.stringify(r.body)}`);
    }
  });

  it("delivers to an endpoint given without a path", async () => {
    const r = await subscribe(rx.url);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.endpoint, rx.url);
    const post = await s.request("/api/v1/statuses", {
      method: "POST",
      token: bob.token,
      json: { status: "@alice hi" },
    });
    assert.equal(post.status, 200);
    await s.settle();
    assert.equal(rx.received.filter((p) => p.path === "/").length, 1);
  });
});
