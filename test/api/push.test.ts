import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { enqueueAdminSignUp } from "../../src/services/notifications/admin-sign-up.ts";
import {
  decryptPush,
  newSubscriptionKeys,
  type PushReceiver,
  type SubscriptionKeys,
  startPushReceiver,
  vapidOf,
} from "../helpers/push-receiver.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ALL_TYPES = [
  "mention",
  "status",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "poll",
  "update",
  "admin.sign_up",
  "admin.report",
  "quote",
  "quoted_update",
];

describe("Web Push subscriptions and delivery", () => {
  let s: TestServer;
  let rx: PushReceiver;
  let serverKey: string;

  before(async () => {
    // The receiver is on 127.0.0.1, which the operator allows (as for any LAN push service).
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
    rx = await startPushReceiver();
    const instance = await s.request("/api/v2/instance");
    serverKey = instance.body.configuration.vapid.public_key;
    assert.match(serverKey, /^[A-Za-z0-9_-]{87}$/, "an uncompressed P-256 point, base64url");
  });
  after(async () => {
    await s.close();
    await rx.close();
  });

  const subscribe = async (
    u: TestUser,
    path: string,
    data: Record<string, unknown>,
    extra: Record<string, unknown> = { standard: true },
  ): Promise<{ keys: SubscriptionKeys; body: any }> => {
    const keys = newSubscriptionKeys();
    const r = await s.request("/api/v1/push/subscription", {
      method: "POST",
      token: u.token,
      json: {
        subscription: { endpoint: `${rx.url}${path}`, keys: { p256dh: keys.p256dh, auth: keys.auth }, ...extra },
        data,
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return { keys, body: r.body };
  };
  const post = async (u: TestUser, status: string) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json: { status } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const pushesTo = (path: string) => rx.received.filter((p) => p.path === path);
  const typesPushedTo = (path: string, keys: SubscriptionKeys) =>
    pushesTo(path).map((p) => decryptPush(p, keys).notification_type);

  it("GET answers 404 without a subscription; POST creates one in Mastodon's shape", async () => {
    const alice = await s.createUser("sub_alice");
    const none = await s.request("/api/v1/push/subscription", { token: alice.token });
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { error: "Record not found" });

    const { body, keys } = await subscribe(alice, "/sub_alice", {
      alerts: { mention: true, favourite: "true", reblog: false },
    });
    assert.deepEqual(Object.keys(body), ["id", "endpoint", "standard", "alerts", "server_key", "policy"]);
    assert.match(body.id, /^\d+$/);
    assert.equal(body.endpoint, `${rx.url}/sub_alice`);
    assert.equal(body.standard, true);
    assert.equal(body.server_key, serverKey);
    assert.equal(body.policy, "all");
    assert.deepEqual(Object.keys(body.alerts), ALL_TYPES);
    assert.equal(body.alerts.mention, true);
    assert.equal(body.alerts.favourite, true);
    assert.equal(body.alerts.reblog, false);
    assert.equal(body.alerts.follow_request, false, "follow_request is off unless asked for");

    const got = await s.request("/api/v1/push/subscription", { token: alice.token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, body);

    // A new POST replaces the token's subscription (one per token, a new id).
    const again = await s.request("/api/v1/push/subscription", {
      method: "POST",
      token: alice.token,
      form: {
        "subscription[endpoint]": `${rx.url}/sub_alice2`,
        "subscription[keys][p256dh]": keys.p256dh,
        "subscription[keys][auth]": keys.auth,
        "data[alerts][admin.sign_up]": "true",
        "data[alerts][follow_request]": "1",
        "data[policy]": "followed",
      },
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.notEqual(again.body.id, body.id);
    assert.equal(again.body.standard, false);
    assert.equal(again.body.policy, "followed");
    assert.deepEqual(
      ALL_TYPES.filter((t) => again.body.alerts[t]),
      ["follow_request", "admin.sign_up"],
    );
    assert.equal((await s.request("/api/v1/push/subscription", { token: alice.token })).body.id, again.body.id);

    // Another token of the same user has a subscription of its own.
    const second = await s.createUser("sub_alice_other");
    assert.equal((await s.request("/api/v1/push/subscription", { token: second.token })).status, 404);
  });

  it("PUT changes alerts and policy (404 without a subscription); DELETE removes it", async () => {
    const bob = await s.createUser("sub_bob");
    const put = (json: unknown) => s.request("/api/v1/push/subscription", { method: "PUT", token: bob.token, json });
    assert.equal((await put({ data: { alerts: { mention: true } } })).status, 404);
    await subscribe(bob, "/sub_bob", { alerts: { mention: true } });
    const changed = await put({ data: { alerts: { follow: true, poll: true }, policy: "follower" } });
    assert.equal(changed.status, 200);
    assert.deepEqual(
      ALL_TYPES.filter((t) => changed.body.alerts[t]),
      ["follow", "poll"],
    );
    assert.equal(changed.body.policy, "follower");
    assert.equal((await put({ data: { policy: "friends" } })).status, 422);

    const del = await s.request("/api/v1/push/subscription", { method: "DELETE", token: bob.token });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal((await s.request("/api/v1/push/subscription", { token: bob.token })).status, 404);
    // Nothing to delete is fine too.
    assert.equal((await s.request("/api/v1/push/subscription", { method: "DELETE", token: bob.token })).status, 200);
  });

  it("checks scope, endpoint and keys", async () => {
    const carol = await s.createUser("sub_carol");
    const good = newSubscriptionKeys();
    const attempt = (subscription: unknown, token = carol.token) =>
      s.request("/api/v1/push/subscription", { method: "POST", token, json: { subscription } });
    const keys = { p256dh: good.p256dh, auth: good.auth };

    const reader = await s.createUser("sub_reader", { scopes: "read write" });
    assert.equal((await attempt({ endpoint: `${rx.url}/x`, keys }, reader.token)).status, 403);
    assert.equal((await s.request("/api/v1/push/subscription")).status, 401);

    assert.equal((await attempt(undefined)).status, 400);
    assert.equal((await attempt({ keys })).status, 422);
    assert.equal((await attempt({ endpoint: "not a url", keys })).status, 422);
    assert.equal((await attempt({ endpoint: "ftp://push.example.net/x", keys })).status, 422);
    // Plain http only to an address the operator allows; https to a private literal is refused.
    const plain = await attempt({ endpoint: "http://127.0.0.2:9/x", keys });
    assert.equal(plain.status, 422);
    assert.match(plain.body.error, /^Validation failed: Endpoint/);
    assert.equal((await attempt({ endpoint: "http://push.example.net/x", keys })).status, 422);
    assert.equal((await attempt({ endpoint: "https://10.0.0.1/x", keys })).status, 422);
    assert.equal((await attempt({ endpoint: "https://push.example.net/x", keys })).status, 200);

    const short = Buffer.alloc(33, 2).toString("base64url");
    assert.equal((await attempt({ endpoint: `${rx.url}/x`, keys: { ...keys, p256dh: short } })).status, 422);
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString("base64url");
    assert.equal((await attempt({ endpoint: `${rx.url}/x`, keys: { ...keys, p256dh: offCurve } })).status, 422);
    assert.equal((await attempt({ endpoint: `${rx.url}/x`, keys: { ...keys, p256dh: "!!!" } })).status, 422);
    assert.equal((await attempt({ endpoint: `${rx.url}/x`, keys: { ...keys, auth: "c2hvcnQ" } })).status, 422);
    assert.equal((await attempt({ endpoint: `${rx.url}/x`, keys: { p256dh: good.p256dh } })).status, 422);
    // Standard base64 with padding is read too.
    const padded = { p256dh: Buffer.from(good.p256dh, "base64url").toString("base64"), auth: good.auth };
    assert.equal((await attempt({ endpoint: `${rx.url}/x`, keys: padded })).status, 200);
  });

  it("pushes the alerts asked for, encrypted (aes128gcm) and signed (VAPID), with Mastodon's payload", async () => {
    const dana = await s.createUser("push_dana");
    const eve = await s.createUser("push_eve");
    const { keys } = await subscribe(dana, "/dana", { alerts: { mention: true, favourite: true } });

    const mine = await post(dana, "my own post");
    await post(eve, "hi @push_dana <b>look</b> & see");
    await s.request(`/api/v1/statuses/${mine.id}/favourite`, { method: "POST", token: eve.token });
    await s.request(`/api/v1/statuses/${mine.id}/reblog`, { method: "POST", token: eve.token });
    await s.settle();

    const pushes = pushesTo("/dana");
    assert.deepEqual(typesPushedTo("/dana", keys).sort(), ["favourite", "mention"], "no push for the boost");
    const notifications = (await s.request("/api/v1/notifications", { token: dana.token })).body as any[];
    const mention = pushes.map((p) => decryptPush(p, keys)).find((p) => p.notification_type === "mention");
    assert.ok(mention);
    assert.deepEqual(Object.keys(mention), [
      "access_token",
      "preferred_locale",
      "notification_id",
      "notification_type",
      "icon",
      "title",
      "body",
    ]);
    assert.equal(mention.access_token, dana.token);
    assert.equal(mention.preferred_locale, "en");
    assert.equal(mention.notification_id, notifications.find((n) => n.type === "mention")?.id);
    assert.equal(mention.title, "You were mentioned by push_eve");
    assert.equal(mention.body, "hi @push_dana <b>look</b> & see");
    assert.match(String(mention.icon), /^http:\/\/.*\/avatars\/original\/missing\.png$/);

    const push = pushes[0];
    assert.ok(push);
    assert.equal(push.method, "POST");
    assert.equal(push.headers["content-encoding"], "aes128gcm");
    assert.equal(push.headers.ttl, String(48 * 3600));
    const vapid = vapidOf(push);
    assert.equal(vapid.key, serverKey);
    assert.equal(vapid.claims.aud, rx.url);
    assert.ok(Number(vapid.claims.exp) > Date.now() / 1000);
    assert.match(String(vapid.claims.sub), /^(mailto:|https:)/);
  });

  it("legacy subscriptions (no `standard`) get Mastodon's aesgcm encoding", async () => {
    const finn = await s.createUser("push_finn");
    const gus = await s.createUser("push_gus");
    const { keys } = await subscribe(finn, "/finn", { alerts: { mention: true } }, {});
    await post(gus, "@push_finn legacy");
    await s.settle();
    const [push] = pushesTo("/finn");
    assert.ok(push);
    assert.equal(push.headers["content-encoding"], "aesgcm");
    assert.equal(vapidOf(push).key, serverKey);
    assert.equal(decryptPush(push, keys).body, "@push_finn legacy");
  });

  it("follow_request alerts stay off unless asked for", async () => {
    const hana = await s.createUser("push_hana");
    const ivan = await s.createUser("push_ivan");
    const jo = await s.createUser("push_jo");
    const locked = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: hana.token,
      form: { locked: "true" },
    });
    assert.equal(locked.status, 200);
    const { keys } = await subscribe(hana, "/hana", { alerts: { follow: true, mention: true } });
    const follow = (u: TestUser) =>
      s.request(`/api/v1/accounts/${hana.account.id}/follow`, { method: "POST", token: u.token });
    assert.equal((await follow(ivan)).status, 200);
    await s.settle();
    assert.equal(pushesTo("/hana").length, 0, "a follow request is not a follow");

    const put = await s.request("/api/v1/push/subscription", {
      method: "PUT",
      token: hana.token,
      json: { data: { alerts: { follow: true, follow_request: true } } },
    });
    assert.equal(put.body.alerts.follow_request, true);
    assert.equal((await follow(jo)).status, 200);
    await s.settle();
    assert.deepEqual(typesPushedTo("/hana", keys), ["follow_request"]);
  });

  it("policies: followed, follower and none", async () => {
    const kim = await s.createUser("push_kim");
    const leo = await s.createUser("push_leo");
    const mia = await s.createUser("push_mia");
    const ned = await s.createUser("push_ned");
    const { keys } = await subscribe(kim, "/kim", { alerts: { mention: true }, policy: "followed" });
    // kim follows leo, mia follows kim: only leo's mention passes `followed`.
    await s.follow(kim, leo);
    await s.follow(mia, kim);
    await post(leo, "@push_kim from someone you follow");
    await post(mia, "@push_kim from a follower");
    await s.settle();
    assert.deepEqual(
      pushesTo("/kim").map((p) => decryptPush(p, keys).body),
      ["@push_kim from someone you follow"],
    );

    const change = (policy: string) =>
      s.request("/api/v1/push/subscription", {
        method: "PUT",
        token: kim.token,
        json: { data: { alerts: { mention: true }, policy } },
      });
    assert.equal((await change("follower")).status, 200);
    await post(leo, "@push_kim followed again");
    await post(mia, "@push_kim follower again");
    await post(ned, "@push_kim stranger");
    await s.settle();
    assert.deepEqual(
      pushesTo("/kim")
        .slice(1)
        .map((p) => decryptPush(p, keys).body),
      ["@push_kim follower again"],
    );

    assert.equal((await change("none")).status, 200);
    await post(mia, "@push_kim nothing now");
    await s.settle();
    assert.equal(pushesTo("/kim").length, 2);
  });

  it("drops the subscription on 410 and retries on 500", async () => {
    const olga = await s.createUser("push_olga");
    const pat = await s.createUser("push_pat");
    const quinn = await s.createUser("push_quinn");
    const { keys } = await subscribe(olga, "/olga", { alerts: { mention: true } });
    rx.answer("/olga", 500, 502);
    await post(pat, "@push_olga through a flaky push service");
    await s.settle();
    const tries = pushesTo("/olga").map((p) => decryptPush(p, keys).notification_id);
    assert.equal(tries.length, 3, "two failures, then delivered");
    assert.equal(new Set(tries).size, 1, "the same notification each time");
    assert.equal((await s.request("/api/v1/push/subscription", { token: olga.token })).status, 200);

    await subscribe(quinn, "/quinn", { alerts: { mention: true } });
    rx.answer("/quinn", 410);
    await post(pat, "@push_quinn gone");
    await s.settle();
    assert.equal(pushesTo("/quinn").length, 1);
    assert.equal((await s.request("/api/v1/push/subscription", { token: quinn.token })).status, 404);
    await post(pat, "@push_quinn nobody listens");
    await s.settle();
    assert.equal(pushesTo("/quinn").length, 1, "nothing more is sent to a dropped subscription");
  });

  it("admin.sign_up is pushed to staff who asked for it", async () => {
    const admin = await s.createUser("push_admin", { role: "Admin" });
    const { keys } = await subscribe(admin, "/admin", { alerts: { "admin.sign_up": true } });
    const newcomer = await s.createUser("newcomer");
    await enqueueAdminSignUp(s.ctx, newcomer.account.id);
    await s.settle();
    const types = typesPushedTo("/admin", keys);
    assert.deepEqual(types, ["admin.sign_up"]);
    assert.equal(decryptPush(pushesTo("/admin")[0] as never, keys).title, "newcomer signed up");
  });
});
