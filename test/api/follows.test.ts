import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { deleteLocalAccount } from "../../src/services/admin/delete-local-account.ts";
import { findLocalUser } from "../../src/services/admin/local-user.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("follows and relationships", () => {
  let s: TestServer;
  let n = 0;

  /** A fresh user (each test gets its own, so tests do not depend on one another). */
  const user = (prefix: string) => s.createUser(`${prefix}${++n}`);

  /** Waits until no job is waiting, delayed or running, and none died. */
  const settled = () => s.settle();

  const follow = (a: TestUser, b: TestUser, form?: Record<string, string | string[]>) =>
    s.request(`/api/v1/accounts/${b.account.id}/follow`, { method: "POST", token: a.token, form: form ?? {} });
  const act = (a: TestUser, b: TestUser, action: string) =>
    s.request(`/api/v1/accounts/${b.account.id}/${action}`, { method: "POST", token: a.token });
  const relationship = async (a: TestUser, b: TestUser) => {
    const r = await s.request(`/api/v1/accounts/relationships?id[]=${b.account.id}`, { token: a.token });
    assert.equal(r.status, 200);
    return r.body[0];
  };
  const account = async (u: TestUser) => (await s.request(`/api/v1/accounts/${u.account.id}`)).body;
  const notifications = async (u: TestUser, types = "") => {
    await settled();
    const r = await s.request(`/api/v1/notifications${types}`, { token: u.token });
    assert.equal(r.status, 200);
    return r.body as any[];
  };
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const home = async (u: TestUser) => {
    await settled();
    const r = await s.request("/api/v1/timelines/home?limit=40", { token: u.token });
    assert.equal(r.status, 200);
    return (r.body as any[]).map((x) => x.id);
  };
  const lock = async (u: TestUser, settings: Record<string, string> = { locked: "true" }) => {
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: u.token,
      form: settings,
    });
    assert.equal(r.status, 200);
  };

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("follows an unlocked account: relationship, counters, a follow notification", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const r = await follow(alice, bob);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.id, bob.account.id);
    assert.equal(r.body.following, true);
    assert.equal(r.body.requested, false);
    assert.equal(r.body.showing_reblogs, true);
    assert.equal(r.body.notifying, false);
    assert.equal(r.body.languages, null);
    assert.equal((await relationship(bob, alice)).followed_by, true);
    assert.equal((await account(alice)).following_count, 1);
    assert.equal((await account(bob)).followers_count, 1);
    const got = await notifications(bob);
    assert.equal(got.length, 1);
    assert.equal(got[0].type, "follow");
    assert.equal(got[0].account.id, alice.account.id);
    assert.equal(got[0].status, undefined);
    // Grouped by hour in v2, as Mastodon 4.3 groups follows.
    assert.match(got[0].group_key, /^follow-\d+$/);
    const v2 = await s.request("/api/v2/notifications", { token: bob.token });
    assert.equal(v2.status, 200);
    assert.equal(v2.body.notification_groups[0].type, "follow");
    assert.deepEqual(v2.body.notification_groups[0].sample_account_ids, [alice.account.id]);
  });

  it("following again changes only the options given, counts once and notifies once", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    assert.equal((await follow(alice, bob)).status, 200);
    const r = await follow(alice, bob, { reblogs: "false", notify: "true", "languages[]": ["en", "de", "en"] });
    assert.equal(r.status, 200);
    assert.equal(r.body.showing_reblogs, false);
    assert.equal(r.body.notifying, true);
    assert.deepEqual(r.body.languages, ["en", "de"]);
    // Only `notify` given: the rest stays.
    const again = await s.request(`/api/v1/accounts/${bob.account.id}/follow`, {
      method: "POST",
      token: alice.token,
      json: { notify: false },
    });
    assert.equal(again.body.showing_reblogs, false);
    assert.equal(again.body.notifying, false);
    assert.deepEqual(again.body.languages, ["en", "de"]);
    // An empty list means every language again.
    const all = await follow(alice, bob, { "languages[]": "" });
    assert.equal(all.body.languages, null);
    assert.equal((await account(alice)).following_count, 1);
    assert.equal((await account(bob)).followers_count, 1);
    assert.equal((await notifications(bob)).length, 1);
  });

  it("unfollow ends the follow, uncounts it and removes its notification; repeatable", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await follow(alice, bob);
    assert.equal((await notifications(bob)).length, 1);
    for (let i = 0; i < 2; i++) {
      const r = await act(alice, bob, "unfollow");
      assert.equal(r.status, 200);
      assert.equal(r.body.following, false);
    }
    assert.equal((await account(alice)).following_count, 0);
    assert.equal((await account(bob)).followers_count, 0);
    assert.equal((await notifications(bob)).length, 0);
  });

  it("remove_from_followers ends their follow of you; repeatable", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await follow(alice, bob);
    for (let i = 0; i < 2; i++) {
      const r = await act(bob, alice, "remove_from_followers");
      assert.equal(r.status, 200);
      assert.equal(r.body.followed_by, false);
    }
    assert.equal((await relationship(alice, bob)).following, false);
    assert.equal((await account(alice)).following_count, 0);
    assert.equal((await account(bob)).followers_count, 0);
  });

  it("refuses yourself, unknown and deleted accounts, and blocks either way", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const gone = await user("gone");
    // As Mastodon's FollowService: following yourself is RecordNotFound.
    const self = await follow(alice, alice);
    assert.equal(self.status, 404);
    assert.equal(self.body.error, "Record not found");
    assert.equal(
      (await s.request("/api/v1/accounts/999999999/follow", { method: "POST", token: alice.token })).status,
      404,
    );
    const lookup = await findLocalUser(s.ctx, gone.account.username);
    assert.ok("found" in lookup);
    await deleteLocalAccount(s.ctx, lookup.found);
    assert.equal((await follow(alice, gone)).status, 410);
    assert.equal((await act(alice, gone, "unfollow")).status, 410);

    assert.equal((await act(bob, alice, "block")).status, 200);
    const blocked = await follow(alice, bob);
    assert.equal(blocked.status, 403);
    assert.equal(blocked.body.error, "This action is not allowed");
    assert.equal((await follow(bob, alice)).status, 403);
    assert.equal((await act(alice, carol, "block")).status, 200);
    assert.equal((await follow(alice, carol)).status, 403);
    assert.equal((await account(alice)).following_count, 0);
    assert.equal((await account(bob)).following_count, 0);
  });

  it("bad options are a 422 and store nothing", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const bad: Record<string, string | string[]>[] = [
      { reblogs: "maybe" },
      { notify: "perhaps" },
      { "languages[]": ["en", "xx-nonsense"] },
    ];
    for (const form of bad) {
      const r = await follow(alice, bob, form);
      assert.equal(r.status, 422, JSON.stringify(form));
      assert.match(r.body.error, /^Validation failed/);
      if ("languages[]" in form) assert.equal(r.body.error, "Validation failed: Languages is invalid");
    }
    assert.equal((await relationship(alice, bob)).following, false);
    assert.equal((await account(bob)).followers_count, 0);
    assert.equal((await notifications(bob)).length, 0);
  });

  it("checks scopes: write:follows to follow, read:follows for requests and familiar followers", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const reader = await s.createUser(`reader${++n}`, { scopes: "read" });
    const writer = await s.createUser(`writer${++n}`, { scopes: "write:follows" });
    const app = await s.appToken("read write follow");
    const path = `/api/v1/accounts/${bob.account.id}/follow`;
    assert.equal((await s.request(path, { method: "POST" })).status, 401);
    assert.equal((await s.request(path, { method: "POST", token: reader.token })).status, 403);
    assert.equal((await s.request(path, { method: "POST", token: app })).status, 422);
    assert.equal((await s.request(path, { method: "POST", token: writer.token })).status, 200);
    assert.equal((await s.request("/api/v1/follow_requests", { token: writer.token })).status, 403);
    assert.equal((await s.request("/api/v1/follow_requests", { token: reader.token })).status, 200);
    assert.equal((await s.request("/api/v1/follow_requests")).status, 401);
    const ff = `/api/v1/accounts/familiar_followers?id[]=${bob.account.id}`;
    assert.equal((await s.request(ff, { token: writer.token })).status, 403);
    assert.equal((await s.request(ff)).status, 401);
    assert.equal(
      (
        await s.request(`/api/v1/follow_requests/${alice.account.id}/authorize`, {
          method: "POST",
          token: reader.token,
        })
      ).status,
      403,
    );
    // The lists are public; a token without read:accounts is refused.
    assert.equal((await s.request(`/api/v1/accounts/${bob.account.id}/followers`)).status, 200);
    assert.equal(
      (await s.request(`/api/v1/accounts/${bob.account.id}/followers`, { token: writer.token })).status,
      403,
    );
  });

  it("a locked account gets a follow request, listed, counted and authorized", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await lock(bob);
    const older = await post(bob, { status: "for followers", visibility: "private" });
    const r = await follow(alice, bob, { notify: "true" });
    assert.equal(r.status, 200);
    assert.equal(r.body.following, false);
    assert.equal(r.body.requested, true);
    assert.equal(r.body.notifying, true);
    // Asking again updates the request's options.
    const again = await follow(alice, bob, { reblogs: "false" });
    assert.equal(again.body.requested, true);
    assert.equal(again.body.showing_reblogs, false);
    assert.equal(again.body.notifying, true);
    assert.equal((await relationship(bob, alice)).requested_by, true);
    assert.equal((await account(bob)).followers_count, 0);

    const got = await notifications(bob);
    assert.equal(got.length, 1);
    assert.equal(got[0].type, "follow_request");
    assert.equal(got[0].account.id, alice.account.id);
    const list = await s.request("/api/v1/follow_requests", { token: bob.token });
    assert.deepEqual(
      list.body.map((a: any) => a.id),
      [alice.account.id],
    );
    assert.match(list.headers.get("link") ?? "", /rel="prev"/);
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: bob.token });
    assert.equal(me.body.source.follow_requests_count, 1);
    assert.ok(!(await home(alice)).includes(older.id));

    const ok = await s.request(`/api/v1/follow_requests/${alice.account.id}/authorize`, {
      method: "POST",
      token: bob.token,
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.id, alice.account.id);
    assert.equal(ok.body.followed_by, true);
    assert.equal(ok.body.requested_by, false);
    const rel = await relationship(alice, bob);
    assert.equal(rel.following, true);
    assert.equal(rel.requested, false);
    assert.equal(rel.showing_reblogs, false);
    assert.equal(rel.notifying, true);
    assert.equal((await account(bob)).followers_count, 1);
    assert.equal((await account(alice)).following_count, 1);
    // The request's notification went with it; authorizing notifies nobody (Mastodon).
    assert.equal((await notifications(bob)).length, 0);
    assert.equal((await notifications(alice)).length, 0);
    // The follower's home is back-filled, private posts included.
    assert.ok((await home(alice)).includes(older.id));
    assert.equal((await s.request("/api/v1/follow_requests", { token: bob.token })).body.length, 0);
    // Nothing left to authorize.
    const twice = await s.request(`/api/v1/follow_requests/${alice.account.id}/authorize`, {
      method: "POST",
      token: bob.token,
    });
    assert.equal(twice.status, 404);
  });

  it("rejecting or withdrawing a request removes it and its notification", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await lock(bob);
    await follow(alice, bob);
    await follow(carol, bob);
    assert.equal((await notifications(bob)).length, 2);
    const r = await s.request(`/api/v1/follow_requests/${alice.account.id}/reject`, {
      method: "POST",
      token: bob.token,
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.requested_by, false);
    assert.equal(r.body.followed_by, false);
    assert.equal(
      (await s.request(`/api/v1/follow_requests/${alice.account.id}/reject`, { method: "POST", token: bob.token }))
        .status,
      404,
    );
    assert.equal((await relationship(alice, bob)).requested, false);
    const withdrawn = await act(carol, bob, "unfollow");
    assert.equal(withdrawn.body.requested, false);
    assert.equal((await notifications(bob)).length, 0);
    assert.equal((await s.request("/api/v1/follow_requests", { token: bob.token })).body.length, 0);
    assert.equal((await account(bob)).followers_count, 0);
    // Unknown accounts are 404s.
    assert.equal(
      (await s.request("/api/v1/follow_requests/123456/authorize", { method: "POST", token: bob.token })).status,
      404,
    );
  });

  it("unlocking an account accepts its pending requests", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await lock(bob);
    await follow(alice, bob, { reblogs: "false" });
    await lock(bob, { locked: "false" });
    await settled();
    const rel = await relationship(alice, bob);
    assert.equal(rel.following, true);
    assert.equal(rel.requested, false);
    assert.equal(rel.showing_reblogs, false);
    assert.equal((await account(bob)).followers_count, 1);
  });

  it("pages follow requests with Link headers", async () => {
    const bob = await user("bob");
    await lock(bob);
    const askers = [await user("a"), await user("b"), await user("c")];
    for (const a of askers) await follow(a, bob);
    const first = await s.request("/api/v1/follow_requests?limit=2", { token: bob.token });
    assert.deepEqual(
      first.body.map((a: any) => a.id),
      [askers[2].account.id, askers[1].account.id],
    );
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const second = await s.request(new URL(next).pathname + new URL(next).search, { token: bob.token });
    assert.deepEqual(
      second.body.map((a: any) => a.id),
      [askers[0].account.id],
    );
  });

  it("a new follow back-fills home; unfollowing takes that account's posts out again", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const pub = await post(bob, { status: "public" });
    const priv = await post(bob, { status: "private", visibility: "private" });
    const dm = await post(bob, { status: `@${carol.account.username} secret`, visibility: "direct" });
    const replyToStranger = await post(bob, {
      status: "@carol hi",
      in_reply_to_id: (await post(carol, { status: "x" })).id,
    });
    const mine = await post(alice, { status: "mine" });
    await follow(alice, bob);
    const feed = await home(alice);
    assert.ok(feed.includes(pub.id));
    assert.ok(feed.includes(priv.id));
    assert.ok(!feed.includes(dm.id));
    // A reply to someone alice does not follow stays out, as in Mastodon's home filter.
    assert.ok(!feed.includes(replyToStranger.id));
    assert.ok(feed.includes(mine.id));
    const later = await post(bob, { status: "after the follow" });
    assert.ok((await home(alice)).includes(later.id));

    await act(alice, bob, "unfollow");
    const after = await home(alice);
    assert.ok(!after.includes(pub.id));
    assert.ok(!after.includes(later.id));
    assert.ok(after.includes(mine.id));
  });

  it("back-fill keeps boosts out when the follow hides them, and honours languages", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const original = await post(carol, { status: "original" });
    const boost = await s.request(`/api/v1/statuses/${original.id}/reblog`, { method: "POST", token: bob.token });
    assert.equal(boost.status, 200);
    const german = await post(bob, { status: "hallo", language: "de" });
    const english = await post(bob, { status: "hello", language: "en" });
    await follow(alice, bob, { reblogs: "false", "languages[]": ["en"] });
    const feed = await home(alice);
    assert.ok(!feed.includes(boost.body.id));
    assert.ok(!feed.includes(german.id));
    assert.ok(feed.includes(english.id));
    // New posts too.
    const german2 = await post(bob, { status: "tschüss", language: "de" });
    assert.ok(!(await home(alice)).includes(german2.id));
  });

  it("notify: true gives a status notification for each new post, not boosts or replies to others", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await follow(alice, bob, { notify: "true" });
    await follow(alice, carol);
    await notifications(alice);
    const p = await post(bob, { status: "news" });
    const selfReply = await post(bob, { status: "more", in_reply_to_id: p.id });
    const c = await post(carol, { status: "carol's" });
    await post(bob, { status: "@carol reply", in_reply_to_id: c.id });
    await s.request(`/api/v1/statuses/${c.id}/reblog`, { method: "POST", token: bob.token });
    const got = await notifications(alice, "?types[]=status");
    // Two fan-out jobs made them, in either order.
    assert.deepEqual(got.map((x) => x.status.id).sort(), [selfReply.id, p.id].sort());
    assert.ok(got.every((x) => x.type === "status" && x.account.id === bob.account.id));
    // Not for carol, whom alice follows without notify.
    assert.ok(!got.some((x) => x.status.id === c.id));
    // Turning it off stops them.
    await follow(alice, bob, { notify: "false" });
    await post(bob, { status: "quiet" });
    assert.equal((await notifications(alice, "?types[]=status")).length, 2);
  });

  it("followers and following: public, paged by follow with Link, blocks and mutes hidden", async () => {
    const bob = await user("bob");
    const fans = [await user("f"), await user("f"), await user("f")];
    for (const f of fans) await follow(f, bob);
    const r = await s.request(`/api/v1/accounts/${bob.account.id}/followers?limit=2`);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.map((a: any) => a.id),
      [fans[2].account.id, fans[1].account.id],
    );
    const next = /<([^>]+)>; rel="next"/.exec(r.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const u = new URL(next);
    assert.equal(u.searchParams.get("limit"), "2");
    const second = await s.request(u.pathname + u.search);
    assert.deepEqual(
      second.body.map((a: any) => a.id),
      [fans[0].account.id],
    );
    const following = await s.request(`/api/v1/accounts/${fans[0].account.id}/following`);
    assert.deepEqual(
      following.body.map((a: any) => a.id),
      [bob.account.id],
    );

    const viewer = await user("viewer");
    await act(viewer, fans[0], "block");
    await act(viewer, fans[1], "mute");
    await act(fans[2], viewer, "block");
    const seen = await s.request(`/api/v1/accounts/${bob.account.id}/followers`, { token: viewer.token });
    assert.deepEqual(seen.body, []);
    // The owner sees all of theirs.
    const own = await s.request(`/api/v1/accounts/${bob.account.id}/followers`, { token: bob.token });
    assert.equal(own.body.length, 3);
    // An account that blocks the viewer shows them an empty list.
    await act(bob, viewer, "block");
    assert.deepEqual(
      (await s.request(`/api/v1/accounts/${bob.account.id}/following`, { token: viewer.token })).body,
      [],
    );
    assert.equal((await s.request("/api/v1/accounts/987654321/followers")).status, 404);
    assert.equal((await s.request(`/api/v1/accounts/${bob.account.id}/followers?limit=-1`)).status, 400);
  });

  it("an account that hides its network shows empty lists to others, not an error", async () => {
    const bob = await user("bob");
    const fan = await user("fan");
    await follow(fan, bob);
    await follow(bob, fan);
    await lock(bob, { hide_collections: "true" });
    for (const side of ["followers", "following"]) {
      const anon = await s.request(`/api/v1/accounts/${bob.account.id}/${side}`);
      assert.equal(anon.status, 200);
      assert.deepEqual(anon.body, []);
      assert.deepEqual((await s.request(`/api/v1/accounts/${bob.account.id}/${side}`, { token: fan.token })).body, []);
      const own = await s.request(`/api/v1/accounts/${bob.account.id}/${side}`, { token: bob.token });
      assert.deepEqual(
        own.body.map((a: any) => a.id),
        [fan.account.id],
      );
    }
  });

  it("familiar followers: accounts you follow that follow each account asked", async () => {
    const me = await user("me");
    const friend = await user("friend");
    const shy = await user("shy");
    const stranger = await user("stranger");
    const target = await user("target");
    const hidden = await user("hidden");
    await follow(me, friend);
    await follow(me, shy);
    await follow(friend, target);
    await follow(shy, target);
    await follow(stranger, target);
    await follow(friend, hidden);
    await lock(shy, { hide_collections: "true" });
    await lock(hidden, { hide_collections: "true" });
    const r = await s.request(
      `/api/v1/accounts/familiar_followers?id[]=${target.account.id}&id[]=${hidden.account.id}&id[]=424242`,
      { token: me.token },
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 2);
    assert.equal(r.body[0].id, target.account.id);
    assert.deepEqual(
      r.body[0].accounts.map((a: any) => a.id),
      [friend.account.id],
    );
    assert.deepEqual(r.body[1], { id: hidden.account.id, accounts: [] });
    assert.deepEqual((await s.request("/api/v1/accounts/familiar_followers", { token: me.token })).body, []);
  });

  it("blocking ends follows and requests both ways and keeps the counters right", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await follow(alice, bob);
    await follow(bob, alice);
    await lock(carol);
    await follow(alice, carol);
    await act(bob, alice, "block");
    await act(carol, alice, "block");
    for (const u of [alice, bob]) {
      const a = await account(u);
      assert.equal(a.followers_count, 0);
      assert.equal(a.following_count, 0);
    }
    assert.equal((await s.request("/api/v1/follow_requests", { token: carol.token })).body.length, 0);
    assert.equal((await relationship(alice, carol)).requested, false);
  });

  it("deleting an account ends its follows and uncounts them", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await follow(alice, bob);
    await follow(bob, alice);
    const lookup = await findLocalUser(s.ctx, bob.account.username);
    assert.ok("found" in lookup);
    await deleteLocalAccount(s.ctx, lookup.found);
    const a = await account(alice);
    assert.equal(a.followers_count, 0);
    assert.equal(a.following_count, 0);
  });

  it("the test helper's follow() still counts", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    assert.equal((await account(bob)).followers_count, 1);
    assert.equal((await relationship(alice, bob)).following, true);
  });

  it("works through masto.js", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const a = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const rel = await a.v1.accounts.$select(bob.account.id).follow({ reblogs: false, notify: true, languages: ["en"] });
    assert.equal(rel.following, true);
    assert.equal(rel.showingReblogs, false);
    assert.equal(rel.notifying, true);
    assert.deepEqual(rel.languages, ["en"]);
    const [fetched] = await a.v1.accounts.relationships.fetch({ id: [bob.account.id] });
    assert.equal(fetched.following, true);
    const followers = await a.v1.accounts.$select(bob.account.id).followers.list();
    assert.deepEqual(
      followers.map((x) => x.id),
      [alice.account.id],
    );
    const following = await a.v1.accounts.$select(alice.account.id).following.list();
    assert.deepEqual(
      following.map((x) => x.id),
      [bob.account.id],
    );
    const b = createRestAPIClient({ url: s.url, accessToken: bob.token });
    await b.v1.accounts.updateCredentials({ locked: true });
    const carol = await user("carol");
    const c = createRestAPIClient({ url: s.url, accessToken: carol.token });
    assert.equal((await c.v1.accounts.$select(bob.account.id).follow()).requested, true);
    const requests = await b.v1.followRequests.list();
    assert.deepEqual(
      requests.map((x) => x.id),
      [carol.account.id],
    );
    assert.equal((await b.v1.followRequests.$select(carol.account.id).authorize()).followedBy, true);
    // masto 8's typed form sends `?0=<id>`, which Mastodon ignores too; `{id}` sends `id[]=`.
    const familiar = await c.v1.accounts.familiarFollowers.fetch({ id: [alice.account.id] } as never);
    assert.deepEqual(familiar[0].accounts, []);
    assert.equal((await a.v1.accounts.$select(bob.account.id).unfollow()).following, false);
  });
});
