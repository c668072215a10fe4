import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FEED_CAP } from "../../src/services/feeds/fan-out.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("timelines: home feed, fan-out on write", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let remoteId: string;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const ids = (body: { id: string }[]) => body.map((x) => x.id);
  const home = async (u: TestUser, query = "") => {
    const r = await s.request(`/api/v1/timelines/home${query}`, { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r;
  };
  const follow = (from: TestUser | string, to: TestUser, showReblogs = true) =>
    s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: typeof from === "string" ? from : from.account.id,
      target_account_id: to.account.id,
      show_reblogs: showReblogs,
      created_at: new Date().toISOString(),
    });
  /** Waits (bounded) until the fan-out job of `statusId` has put it into `u`'s feed. */
  const waitFor = async (u: TestUser, statusId: string) => {
    for (let i = 0; i < 250; i++) {
      if (ids((await home(u, "?limit=40")).body).includes(statusId)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`status ${statusId} never reached ${u.account.username}'s home`);
  };
  /** Waits until every queued job has run. */
  const drain = () => s.settle({ allowDead: true });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
    const now = new Date().toISOString();
    remoteId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "remote",
      domain: "remote.example",
      uri: "https://remote.example/users/remote",
      url: "https://remote.example/@remote",
      created_at: now,
      updated_at: now,
    });
    await follow(bob, alice);
    await follow(carol, alice, false);
    await follow(remoteId, alice);
  });
  after(() => s.close());

  it("fans a post out to the author and every local follower, by visibility", async () => {
    const pub = await post(alice, { status: "hello followers" });
    await waitFor(carol, pub.id);
    await waitFor(bob, pub.id);
    await waitFor(alice, pub.id);
    const priv = await post(alice, { status: "followers only", visibility: "private" });
    const unlisted = await post(alice, { status: "unlisted", visibility: "unlisted" });
    const direct = await post(alice, { status: "@dave @bob just you", visibility: "direct" });
    await waitFor(bob, direct.id);
    await drain();
    assert.deepEqual(ids((await home(bob)).body), [direct.id, unlisted.id, priv.id, pub.id]);
    assert.deepEqual(ids((await home(carol)).body), [unlisted.id, priv.id, pub.id]);
    assert.deepEqual(ids((await home(alice)).body), [direct.id, unlisted.id, priv.id, pub.id]);
    // A direct post reaches the mentioned accounts that follow the author (Mastodon's
    // deliver_to_mentioned_followers!): dave, who follows nobody, has it in notifications only.
    assert.deepEqual(ids((await home(dave)).body), []);
    // Nothing for the remote follower: feeds are for local accounts only.
    assert.equal(await s.ctx.repos.feeds.count(remoteId), 0);
    // A private post reaches followers' homes only.
    assert.ok(!ids((await s.request("/api/v1/timelines/public")).body).includes(priv.id));
  });

  it("boosts reach followers unless the follow hides boosts, once per post", async () => {
    const davePost = await post(dave, { status: "dave writes" });
    const boost = (await s.request(`/api/v1/statuses/${davePost.id}/reblog`, { method: "POST", token: alice.token }))
      .body;
    await waitFor(bob, boost.id);
    const bobHome = (await home(bob)).body;
    assert.equal(bobHome[0].id, boost.id);
    assert.equal(bobHome[0].reblog.id, davePost.id);
    await drain();
    assert.ok(!ids((await home(carol)).body).includes(boost.id));
    assert.ok(ids((await home(alice)).body).includes(boost.id));
    // A second boost of a post already in the feed is not added again.
    await follow(bob, carol);
    const carolBoost = (
      await s.request(`/api/v1/statuses/${davePost.id}/reblog`, { method: "POST", token: carol.token })
    ).body;
    await waitFor(carol, carolBoost.id);
    await drain();
    assert.ok(!ids((await home(bob)).body).includes(carolBoost.id));
    // Undoing the boost takes it out of the feeds.
    await s.request(`/api/v1/statuses/${davePost.id}/unreblog`, { method: "POST", token: alice.token });
    assert.ok(!ids((await home(bob)).body).includes(boost.id));
    assert.ok(!ids((await home(alice)).body).includes(boost.id));
  });

  it("deleting a post removes it from every feed; visibility is checked again on read", async () => {
    const doomed = await post(alice, { status: "soon gone" });
    const priv = await post(alice, { status: "private again", visibility: "private" });
    await waitFor(bob, doomed.id);
    await waitFor(bob, priv.id);
    const del = await s.request(`/api/v1/statuses/${doomed.id}`, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    for (const u of [alice, bob, carol]) assert.ok(!ids((await home(u)).body).includes(doomed.id));
    // Once bob stops following alice, her private post leaves his home, though still in the table.
    await s.ctx.repos.follows.delete(bob.account.id, alice.account.id);
    assert.ok(!ids((await home(bob)).body).includes(priv.id));
    await follow(bob, alice);
    assert.ok(ids((await home(bob)).body).includes(priv.id));
  });

  it("a reply to someone else reaches only followers who follow them too, or are them", async () => {
    const davePost = await post(dave, { status: "dave again" });
    const bobPost = await post(bob, { status: "bob here" });
    await follow(carol, dave);
    const toDave = await post(alice, { status: "@dave indeed", in_reply_to_id: davePost.id });
    const toBob = await post(alice, { status: "@bob sure", in_reply_to_id: bobPost.id });
    const toSelf = await post(alice, { status: "and more", in_reply_to_id: toBob.id });
    await waitFor(bob, toSelf.id);
    await waitFor(carol, toSelf.id);
    await drain();
    const bobHome = ids((await home(bob, "?limit=40")).body);
    assert.ok(!bobHome.includes(toDave.id));
    assert.ok(bobHome.includes(toBob.id));
    const carolHome = ids((await home(carol, "?limit=40")).body);
    assert.ok(carolHome.includes(toDave.id));
    assert.ok(!carolHome.includes(toBob.id));
    assert.ok(ids((await home(alice, "?limit=40")).body).includes(toDave.id));
  });

  it("pages with max_id/since_id/min_id/limit and Link headers, also when empty", async () => {
    const posted: string[] = [];
    for (let i = 0; i < 4; i++) posted.push((await post(dave, { status: `page ${i}` })).id);
    await waitFor(dave, posted[3]);
    await drain();
    const all = ids((await home(dave)).body);
    assert.deepEqual(all.slice(0, 4), [...posted].reverse());
    const first = await home(dave, "?limit=2");
    assert.deepEqual(ids(first.body), [posted[3], posted[2]]);
    const link = first.headers.get("link") ?? "";
    assert.match(link, new RegExp(`/api/v1/timelines/home\\?limit=2&max_id=${posted[2]}>; rel="next"`));
    assert.match(link, new RegExp(`min_id=${posted[3]}>; rel="prev"`));
    assert.deepEqual(ids((await home(dave, `?limit=2&max_id=${posted[2]}`)).body), [posted[1], posted[0]]);
    assert.deepEqual(ids((await home(dave, `?min_id=${posted[0]}&limit=2`)).body), [posted[2], posted[1]]);
    assert.deepEqual(ids((await home(dave, `?since_id=${posted[1]}`)).body), [posted[3], posted[2]]);
    assert.deepEqual(ids((await home(dave, "?limit=100")).body), all);
    const empty = await home(dave, `?min_id=${posted[3]}`);
    assert.deepEqual(empty.body, []);
    assert.match(empty.headers.get("link") ?? "", new RegExp(`min_id=${posted[3]}>; rel="prev"`));
    const nobody = await s.createUser("newcomer");
    const fresh = await home(nobody);
    assert.deepEqual(fresh.body, []);
    assert.ok(fresh.headers.has("link"));
  });

  it("feeds are capped: the oldest entries are trimmed", async () => {
    assert.equal(FEED_CAP, 800);
    const erin = await s.createUser("erin");
    const frank = await s.createUser("frank");
    await follow(frank, erin);
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) posted.push((await post(erin, { status: `cap ${i}` })).id);
    await waitFor(frank, posted[4]);
    await waitFor(erin, posted[4]);
    await drain();
    assert.equal(await s.ctx.repos.feeds.count(erin.account.id), 5);
    const own = (await post(frank, { status: "frank's own" })).id;
    await waitFor(frank, own);
    // No feed lost the status itself (the fan-out streams it to the feeds it read, less those).
    assert.deepEqual(await s.ctx.repos.feeds.trimFeedsOf(posted[4], 3), []);
    assert.deepEqual(ids((await home(erin)).body), [posted[4], posted[3], posted[2]]);
    assert.deepEqual(ids((await home(frank)).body), [own, posted[4], posted[3]]);
    // Other feeds are left alone.
    assert.ok((await s.ctx.repos.feeds.count(alice.account.id)) > 3);
    // An older post than the cap keeps leaves the feed it was in, and the trim says which.
    assert.deepEqual(await s.ctx.repos.feeds.trimFeedsOf(posted[2], 1), [erin.account.id]);
    assert.deepEqual(ids((await home(erin)).body), [posted[4]]);
  });

  it("the fan-out's trim looks at one feed in `every`: those whose id and the status id add up to a multiple", async () => {
    const gina = await s.createUser("gina");
    const readers = [await s.createUser("hal"), await s.createUser("ivy"), await s.createUser("jon")];
    for (const r of readers) await follow(r, gina);
    const posted: string[] = [];
    for (let i = 0; i < 4; i++) posted.push((await post(gina, { status: `every ${i}` })).id);
    for (const r of readers) await waitFor(r, posted[3]);
    await drain();
    const last = BigInt(posted[3]);
    const due = (u: TestUser) => (BigInt(u.account.id) + last) % 2n === 0n;
    await s.ctx.repos.feeds.trimFeedsOf(posted[3], 1, undefined, 2);
    for (const r of [gina, ...readers]) {
      const n = await s.ctx.repos.feeds.count(r.account.id);
      if (due(r)) assert.equal(n, 1, `${r.account.username}'s feed was trimmed`);
      else assert.ok(n >= 4, `${r.account.username}'s feed was left alone`);
    }
  });

  it("fan-out reaches every follower past the first page of 250 recipients", async () => {
    const star = await s.createUser("star");
    const now = new Date().toISOString();
    const fans: string[] = [];
    for (let i = 0; i < 260; i++) {
      const id = s.ctx.ids.next();
      await s.ctx.repos.accounts.insert({
        id,
        username: `fan${i}`,
        uri: `${s.ctx.config.baseUrl}/users/fan${i}`,
        created_at: now,
        updated_at: now,
      });
      await follow(id, star);
      fans.push(id);
    }
    const p = await post(star, { status: "to all of you" });
    await drain();
    const holders = await s.ctx.db.selectFrom("feeds").select("account_id").where("status_id", "=", p.id).execute();
    const got = new Set(holders.map((h) => String(h.account_id)));
    assert.equal(got.size, 261);
    assert.ok(fans.every((id) => got.has(id)));
  });

  it("scopes: 401 without a token, 403 without read:statuses, 422 for an app token", async () => {
    assert.equal((await s.request("/api/v1/timelines/home")).status, 401);
    assert.equal((await s.request("/api/v1/timelines/home", { token: "nope" })).status, 401);
    const writer = await s.createUser("writer", { scopes: "write" });
    assert.equal((await s.request("/api/v1/timelines/home", { token: writer.token })).status, 403);
    const app = await s.appToken("read");
    const r = await s.request("/api/v1/timelines/home", { token: app });
    assert.equal(r.status, 422);
    const narrow = await s.createUser("narrow", { scopes: "read:statuses" });
    assert.equal((await s.request("/api/v1/timelines/home", { token: narrow.token })).status, 200);
  });
});
