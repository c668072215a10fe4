import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { removeFromListsOnUnfollow } from "../../src/services/lists/lists.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("lists", () => {
  let s: TestServer;
  let n = 0;

  const user = (name: string) => s.createUser(`${name}${++n}`);
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const ids = (body: { id: string }[]) => body.map((x) => x.id);
  /** Waits until every queued job (the fan-out among them) has run. */
  const drain = () => s.settle({ allowDead: true });
  const createList = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/lists", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string; title: string; replies_policy: string; exclusive: boolean };
  };
  const add = async (u: TestUser, listId: string, members: TestUser[]) => {
    const r = await s.request(`/api/v1/lists/${listId}/accounts`, {
      method: "POST",
      token: u.token,
      json: { account_ids: members.map((m) => m.account.id) },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const timeline = async (u: TestUser, listId: string, query = "?limit=40") => {
    const r = await s.request(`/api/v1/timelines/list/${listId}${query}`, { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return ids(r.body);
  };
  const home = async (u: TestUser) => {
    const r = await s.request("/api/v1/timelines/home?limit=40", { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return ids(r.body);
  };
  const members = async (u: TestUser, listId: string, query = "") => {
    const r = await s.request(`/api/v1/lists/${listId}/accounts${query}`, { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r;
  };

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("applies the owner's home filters to the list timeline", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    const list = await createList(alice, { title: "Filtered" });
    await add(alice, list.id, [bob]);
    const f = await s.request("/api/v2/filters", {
      method: "POST",
      token: alice.token,
      json: {
        title: "spoilers",
        context: ["home"],
        filter_action: "warn",
        keywords_attributes: [{ keyword: "finale" }],
      },
    });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    const st = await post(bob, { status: "the finale was great" });
    await drain();
    const r = await s.request(`/api/v1/timelines/list/${list.id}`, { token: alice.token });
    const got = r.body.find((x: { id: string }) => x.id === st.id);
    assert.ok(got, "the post is in the list");
    assert.equal(got.filtered.length, 1);
    assert.equal(got.filtered[0].filter.id, f.body.id);
    assert.deepEqual(got.filtered[0].keyword_matches, ["finale"]);
  });

  it("unfollowing through the API ends the membership and takes the account's posts out of the list", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const f = await s.request(`/api/v1/accounts/${bob.account.id}/follow`, { method: "POST", token: alice.token });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    const list = await createList(alice, { title: "Unfollowed" });
    await add(alice, list.id, [bob]);
    const st = await post(bob, { status: "in the list" });
    await drain();
    assert.ok((await timeline(alice, list.id)).includes(st.id));
    const u = await s.request(`/api/v1/accounts/${bob.account.id}/unfollow`, { method: "POST", token: alice.token });
    assert.equal(u.status, 200);
    assert.deepEqual(ids((await members(alice, list.id)).body), []);
    assert.deepEqual(await timeline(alice, list.id), []);
  });

  it("creates, shows, updates and deletes lists, only the owner's", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const created = await createList(alice, { title: "Friends" });
    assert.deepEqual(created, { id: created.id, title: "Friends", replies_policy: "list", exclusive: false });
    const other = await createList(alice, { title: "News", replies_policy: "none", exclusive: true });
    assert.equal(other.replies_policy, "none");
    assert.equal(other.exclusive, true);
    // Form parameters work too.
    const form = await s.request("/api/v1/lists", {
      method: "POST",
      token: alice.token,
      form: { title: "Form", replies_policy: "followed", exclusive: "true" },
    });
    assert.equal(form.status, 200);
    assert.equal(form.body.replies_policy, "followed");
    assert.equal(form.body.exclusive, true);

    const all = await s.request("/api/v1/lists", { token: alice.token });
    assert.deepEqual(ids(all.body), [created.id, other.id, form.body.id]);
    assert.deepEqual((await s.request(`/api/v1/lists/${created.id}`, { token: alice.token })).body, created);

    const updated = await s.request(`/api/v1/lists/${created.id}`, {
      method: "PUT",
      token: alice.token,
      json: { title: "Close friends", replies_policy: "followed", exclusive: true },
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body, {
      id: created.id,
      title: "Close friends",
      replies_policy: "followed",
      exclusive: true,
    });
    // A partial update keeps the rest.
    const partial = await s.request(`/api/v1/lists/${created.id}`, {
      method: "PUT",
      token: alice.token,
      json: { exclusive: false },
    });
    assert.deepEqual(partial.body, {
      id: created.id,
      title: "Close friends",
      replies_policy: "followed",
      exclusive: false,
    });

    // Someone else's list does not exist for bob.
    assert.deepEqual((await s.request("/api/v1/lists", { token: bob.token })).body, []);
    for (const [method, path] of [
      ["GET", `/api/v1/lists/${created.id}`],
      ["PUT", `/api/v1/lists/${created.id}`],
      ["DELETE", `/api/v1/lists/${created.id}`],
      ["GET", `/api/v1/lists/${created.id}/accounts`],
      ["POST", `/api/v1/lists/${created.id}/accounts`],
      ["DELETE", `/api/v1/lists/${created.id}/accounts`],
      ["GET", `/api/v1/timelines/list/${created.id}`],
    ]) {
      const r = await s.request(path, {
        method,
        token: bob.token,
        json: method === "GET" ? undefined : { title: "x" },
      });
      assert.equal(r.status, 404, `${method} ${path}`);
    }
    assert.equal((await s.request(`/api/v1/lists/${created.id}`, { token: alice.token })).body.title, "Close friends");

    // Its timeline, read (and kept) before the list is deleted, is not found after.
    const timeline = `/api/v1/timelines/list/${created.id}`;
    for (let i = 0; i < 2; i++) assert.equal((await s.request(timeline, { token: alice.token })).status, 200);
    const del = await s.request(`/api/v1/lists/${created.id}`, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal((await s.request(`/api/v1/lists/${created.id}`, { token: alice.token })).status, 404);
    assert.equal((await s.request(timeline, { token: alice.token })).status, 404);
    assert.equal(
      (await s.request(`/api/v1/lists/${created.id}`, { method: "DELETE", token: alice.token })).status,
      404,
    );
    assert.equal((await s.request("/api/v1/lists/123456789", { token: alice.token })).status, 404);
    assert.equal((await s.request("/api/v1/lists/abc", { token: alice.token })).status, 404);
  });

  it("rejects bad input with a 422 and changes nothing", async () => {
    const alice = await user("alice");
    const list = await createList(alice, { title: "Keep", replies_policy: "followed" });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{}, /Title can't be blank/],
      [{ title: "" }, /Title can't be blank/],
      [{ title: "   " }, /Title can't be blank/],
      [{ title: "x", replies_policy: "everyone" }, /Replies policy is not included in the list/],
      [{ title: "x", replies_policy: 3 }, /Replies policy is not included in the list/],
      [{ title: "x", replies_policy: "" }, /Replies policy is not included in the list/],
      [{ title: "x", replies_policy: null }, /Replies policy is not included in the list/],
      [{ title: null }, /Title can't be blank/],
      [{ title: "x", exclusive: "maybe" }, /Exclusive is invalid/],
      [{ title: { a: 1 } }, /Title is invalid/],
      [{ title: "x".repeat(1001) }, /Title is too long/],
    ];
    for (const [json, message] of bad) {
      const r = await s.request("/api/v1/lists", { method: "POST", token: alice.token, json });
      assert.equal(r.status, 422, JSON.stringify(json));
      assert.match(r.body.error, message);
    }
    for (const [json, message] of bad.slice(1)) {
      const r = await s.request(`/api/v1/lists/${list.id}`, { method: "PUT", token: alice.token, json });
      assert.equal(r.status, 422, JSON.stringify(json));
      assert.match(r.body.error, message);
    }
    const lists = await s.request("/api/v1/lists", { token: alice.token });
    assert.deepEqual(lists.body, [list]);
  });

  it("allows at most 50 lists per account", async () => {
    const alice = await user("alice");
    for (let i = 0; i < 50; i++) await createList(alice, { title: `L${i}` });
    const r = await s.request("/api/v1/lists", { method: "POST", token: alice.token, json: { title: "one more" } });
    assert.equal(r.status, 422);
    assert.match(r.body.error, /maximum number of lists/);
    assert.equal((await s.request("/api/v1/lists", { token: alice.token })).body.length, 50);
  });

  it("checks scopes", async () => {
    const alice = await user("alice");
    const list = await createList(alice, { title: "Scoped" });
    const readOnly = (await s.createUser(`reader${++n}`, { scopes: "read:lists" })).token;
    const statusesOnly = (await s.createUser(`other${++n}`, { scopes: "read:statuses write:statuses" })).token;
    const app = await s.appToken("read write");
    assert.equal((await s.request("/api/v1/lists")).status, 401);
    assert.equal((await s.request("/api/v1/lists", { token: readOnly })).status, 200);
    assert.equal((await s.request("/api/v1/lists", { token: statusesOnly })).status, 403);
    assert.equal((await s.request("/api/v1/lists", { token: app })).status, 422);
    const write = await s.request("/api/v1/lists", { method: "POST", token: readOnly, json: { title: "no" } });
    assert.equal(write.status, 403);
    for (const path of [`/api/v1/lists/${list.id}/accounts`, `/api/v1/timelines/list/${list.id}`]) {
      assert.equal((await s.request(path, { token: statusesOnly })).status, 403, path);
      assert.equal((await s.request(path)).status, 401, path);
    }
    const addMember = await s.request(`/api/v1/lists/${list.id}/accounts`, {
      method: "POST",
      token: readOnly,
      json: { account_ids: [alice.account.id] },
    });
    assert.equal(addMember.status, 403);
    assert.equal((await s.request(`/api/v1/accounts/${alice.account.id}/lists`, { token: statusesOnly })).status, 403);
  });

  it("adds only followed accounts, lists members with pagination, and answers accounts/:id/lists", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const stranger = await user("stranger");
    await s.follow(alice, bob);
    await s.follow(alice, carol);
    const list = await createList(alice, { title: "Members" });
    const second = await createList(alice, { title: "Second" });

    // Not followed: a 422 with Mastodon's message, and nothing is added (all or none).
    const refused = await s.request(`/api/v1/lists/${list.id}/accounts`, {
      method: "POST",
      token: alice.token,
      json: { account_ids: [bob.account.id, stranger.account.id] },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error, "Validation failed: Account must be a followed account");
    assert.deepEqual((await members(alice, list.id)).body, []);
    // Unknown accounts are a 404.
    const unknown = await s.request(`/api/v1/lists/${list.id}/accounts`, {
      method: "POST",
      token: alice.token,
      form: { "account_ids[]": ["99999999"] },
    });
    assert.equal(unknown.status, 404);

    await add(alice, list.id, [bob, carol]);
    await add(alice, list.id, [alice]); // one's own account may be listed, as in Mastodon
    await add(alice, second.id, [bob]);
    const twice = await s.request(`/api/v1/lists/${list.id}/accounts`, {
      method: "POST",
      token: alice.token,
      json: { account_ids: [bob.account.id] },
    });
    assert.equal(twice.status, 422);
    assert.equal(twice.body.error, "Validation failed: Account is already on the list");

    // Newest membership first; Link pages through them.
    const first = await members(alice, list.id, "?limit=2");
    assert.deepEqual(ids(first.body), [alice.account.id, carol.account.id]);
    assert.equal(first.body[0].username, alice.account.username);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const rest = await members(alice, list.id, new URL(next).search);
    assert.deepEqual(ids(rest.body), [bob.account.id]);
    const unlimited = await members(alice, list.id, "?limit=0");
    assert.equal(unlimited.body.length, 3);
    assert.equal(unlimited.headers.get("link"), null);
    const negative = await s.request(`/api/v1/lists/${list.id}/accounts?limit=-1`, { token: alice.token });
    assert.equal(negative.status, 400);

    const ofBob = await s.request(`/api/v1/accounts/${bob.account.id}/lists`, { token: alice.token });
    assert.deepEqual(ids(ofBob.body), [list.id, second.id]);
    assert.equal(ofBob.body[1].title, "Second");
    const ofStranger = await s.request(`/api/v1/accounts/${stranger.account.id}/lists`, { token: alice.token });
    assert.deepEqual(ofStranger.body, []);
    // Only the caller's own lists.
    assert.deepEqual((await s.request(`/api/v1/accounts/${bob.account.id}/lists`, { token: carol.token })).body, []);
    assert.equal((await s.request("/api/v1/accounts/99999999/lists", { token: alice.token })).status, 404);

    // Removing: repeatable, unknown ids ignored.
    for (let i = 0; i < 2; i++) {
      const r = await s.request(`/api/v1/lists/${list.id}/accounts`, {
        method: "DELETE",
        token: alice.token,
        json: { account_ids: [carol.account.id, "123"] },
      });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {});
    }
    assert.deepEqual(ids((await members(alice, list.id, "?limit=0")).body), [alice.account.id, bob.account.id]);
  });

  it("fills list timelines on write, by replies_policy", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const dave = await user("dave");
    const erin = await user("erin");
    for (const t of [bob, carol, dave]) await s.follow(alice, t);
    const followed = await createList(alice, { title: "followed", replies_policy: "followed" });
    const listed = await createList(alice, { title: "list", replies_policy: "list" });
    const none = await createList(alice, { title: "none", replies_policy: "none" });
    await add(alice, followed.id, [bob]);
    await add(alice, listed.id, [bob, carol]);
    await add(alice, none.id, [bob]);

    const carolPost = await post(carol, { status: "carol here" });
    const davePost = await post(dave, { status: "dave here" });
    const erinPost = await post(erin, { status: "erin here" });
    const alicePost = await post(alice, { status: "alice here" });
    const top = await post(bob, { status: "top level" });
    const toCarol = await post(bob, { status: "@x to carol", in_reply_to_id: carolPost.id });
    const toDave = await post(bob, { status: "to dave", in_reply_to_id: davePost.id });
    const toErin = await post(bob, { status: "to erin", in_reply_to_id: erinPost.id });
    const toAlice = await post(bob, { status: "to alice", in_reply_to_id: alicePost.id });
    const self = await post(bob, { status: "thread", in_reply_to_id: top.id });
    const direct = await post(bob, { status: `@${alice.account.username} secret`, visibility: "direct" });
    const boostR = await s.request(`/api/v1/statuses/${erinPost.id}/reblog`, { method: "POST", token: bob.token });
    assert.equal(boostR.status, 200);
    await drain();

    const expectFollowed = [boostR.body.id, self.id, toAlice.id, toDave.id, toCarol.id, top.id];
    assert.deepEqual(await timeline(alice, followed.id), expectFollowed);
    // carol's own post is in the "list" list as she is a member; the reply to dave is not (he is not).
    assert.deepEqual(await timeline(alice, listed.id), [
      boostR.body.id,
      self.id,
      toAlice.id,
      toCarol.id,
      top.id,
      carolPost.id,
    ]);
    assert.deepEqual(await timeline(alice, none.id), [boostR.body.id, self.id, toAlice.id, top.id]);
    for (const l of [followed, listed, none]) {
      const t = await timeline(alice, l.id);
      assert.ok(!t.includes(toErin.id) && !t.includes(direct.id));
    }
    // Pages with Link.
    const r = await s.request(`/api/v1/timelines/list/${followed.id}?limit=2`, { token: alice.token });
    assert.deepEqual(ids(r.body), expectFollowed.slice(0, 2));
    const next = /<([^>]+)>; rel="next"/.exec(r.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const page2 = await s.request(`/api/v1/timelines/list/${followed.id}${new URL(next).search}`, {
      token: alice.token,
    });
    assert.deepEqual(ids(page2.body), expectFollowed.slice(2, 4));

    // A deleted status leaves the list timelines.
    assert.equal((await s.request(`/api/v1/statuses/${top.id}`, { method: "DELETE", token: bob.token })).status, 200);
    assert.ok(!(await timeline(alice, followed.id)).includes(top.id));
    assert.equal(
      (await s.ctx.db.selectFrom("list_feeds").select("list_id").where("status_id", "=", top.id).execute()).length,
      0,
    );
  });

  it("shows private posts only while the owner follows the member; unfollowing empties the lists", async () => {
    const alice = await user("alice");
    const frank = await user("frank");
    await s.follow(alice, frank);
    const list = await createList(alice, { title: "private" });
    await add(alice, list.id, [frank]);
    const priv = await post(frank, { status: "followers only", visibility: "private" });
    const pub = await post(frank, { status: "public" });
    await drain();
    assert.deepEqual(await timeline(alice, list.id), [pub.id, priv.id]);

    // The follow ends without the follow endpoints' help: the private post is never shown again,
    // and the membership ends with the follow.
    await s.ctx.db
      .deleteFrom("follows")
      .where("account_id", "=", alice.account.id)
      .where("target_account_id", "=", frank.account.id)
      .execute();
    assert.ok(!(await timeline(alice, list.id)).includes(priv.id));
    const later = await post(frank, { status: "followers only again", visibility: "private" });
    await drain();
    assert.ok(!(await timeline(alice, list.id)).includes(later.id));
    assert.deepEqual((await members(alice, list.id)).body, []);

    // The hook for the unfollow endpoint takes the rest of the member's statuses out.
    await removeFromListsOnUnfollow(s.ctx, alice.account.id, frank.account.id);
    assert.deepEqual(await timeline(alice, list.id), []);
  });

  it("back-fills a member's recent statuses when added and removes them when removed", async () => {
    const alice = await user("alice");
    const grace = await user("grace");
    const pub = await post(grace, { status: "old public" });
    const priv = await post(grace, { status: "old private", visibility: "private" });
    const direct = await post(grace, { status: `@${alice.account.username} old direct`, visibility: "direct" });
    await drain();
    await s.follow(alice, grace);
    const list = await createList(alice, { title: "backfill" });
    await add(alice, list.id, [grace]);
    const t = await timeline(alice, list.id);
    assert.deepEqual(t, [priv.id, pub.id]);
    assert.ok(!t.includes(direct.id));
    const r = await s.request(`/api/v1/lists/${list.id}/accounts`, {
      method: "DELETE",
      token: alice.token,
      form: { "account_ids[]": grace.account.id },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(await timeline(alice, list.id), []);
    // Nothing more arrives after removal.
    const fresh = await post(grace, { status: "after removal" });
    await drain();
    assert.deepEqual(await timeline(alice, list.id), []);
    assert.ok((await home(alice)).includes(fresh.id));
  });

  it("bounds back-fills and trims list timelines to their cap", async () => {
    const alice = await user("alice");
    const hank = await user("hank");
    const posted: string[] = [];
    for (let i = 0; i < 4; i++) posted.push((await post(hank, { status: `h${i}` })).id);
    await drain();
    await s.follow(alice, hank);
    const a = await createList(alice, { title: "a" });
    const b = await createList(alice, { title: "b" });
    const repo = s.ctx.repos.lists;
    // Added directly, so that the back-fill bound can be small here.
    for (const l of [a, b]) {
      await repo.insertMember({ id: s.ctx.ids.next(), list_id: l.id, account_id: hank.account.id, follow_id: null });
    }
    await repo.backfill(a.id, hank.account.id, 2);
    assert.deepEqual(await timeline(alice, a.id), [posted[3], posted[2]]);
    await repo.backfill(b.id, hank.account.id, 10);
    await repo.trimList(b.id, 3);
    assert.deepEqual(await timeline(alice, b.id), [posted[3], posted[2], posted[1]]);
    // The fan-out's trim: every list holding the status, to the cap.
    await repo.trimFeedsOf(posted[3], 1);
    assert.deepEqual(await timeline(alice, a.id), [posted[3]]);
    assert.deepEqual(await timeline(alice, b.id), [posted[3]]);
  });

  it("keeps posts by members of an exclusive list out of the owner's home", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await s.follow(alice, bob);
    await s.follow(alice, carol);
    const list = await createList(alice, { title: "exclusive", exclusive: true });
    const plain = await createList(alice, { title: "plain" });
    await add(alice, list.id, [bob]);
    await add(alice, plain.id, [carol]);
    const bobPost = await post(bob, { status: "only in the list" });
    const carolPost = await post(carol, { status: "home and list" });
    await drain();
    const h = await home(alice);
    assert.ok(!h.includes(bobPost.id));
    assert.ok(h.includes(carolPost.id));
    assert.deepEqual(await timeline(alice, list.id), [bobPost.id]);
    assert.deepEqual(await timeline(alice, plain.id), [carolPost.id]);
    // The author's own home is not affected.
    assert.ok((await home(bob)).includes(bobPost.id));
    // No longer exclusive: new posts reach home again.
    await s.request(`/api/v1/lists/${list.id}`, { method: "PUT", token: alice.token, json: { exclusive: false } });
    const again = await post(bob, { status: "home again" });
    await drain();
    assert.ok((await home(alice)).includes(again.id));
  });

  it("a block ends list membership both ways; a mute clears the list timeline", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await s.follow(alice, bob);
    await s.follow(bob, alice);
    await s.follow(alice, carol);
    const aliceList = await createList(alice, { title: "a" });
    const bobList = await createList(bob, { title: "b" });
    await add(alice, aliceList.id, [bob, carol]);
    await add(bob, bobList.id, [alice]);
    const bobPost = await post(bob, { status: "bob" });
    const alicePost = await post(alice, { status: "alice" });
    const carolPost = await post(carol, { status: "carol" });
    await drain();
    assert.deepEqual(await timeline(alice, aliceList.id), [carolPost.id, bobPost.id]);
    assert.deepEqual(await timeline(bob, bobList.id), [alicePost.id]);

    assert.equal(
      (await s.request(`/api/v1/accounts/${bob.account.id}/block`, { method: "POST", token: alice.token })).status,
      200,
    );
    assert.deepEqual(ids((await members(alice, aliceList.id)).body), [carol.account.id]);
    assert.deepEqual(await timeline(alice, aliceList.id), [carolPost.id]);
    assert.deepEqual((await members(bob, bobList.id)).body, []);
    assert.deepEqual(await timeline(bob, bobList.id), []);

    const mute = await s.request(`/api/v1/accounts/${carol.account.id}/mute`, { method: "POST", token: alice.token });
    assert.equal(mute.status, 200);
    assert.deepEqual(await timeline(alice, aliceList.id), []);
    assert.deepEqual(ids((await members(alice, aliceList.id)).body), [carol.account.id]);
    const muted = await post(carol, { status: "while muted" });
    await drain();
    assert.ok(!(await timeline(alice, aliceList.id)).includes(muted.id));
  });

  it("works through masto", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    // masto's types lack `repliesPolicy`, but it sends it (as `replies_policy`).
    const createParams = { title: "masto", repliesPolicy: "followed", exclusive: false };
    const list = await client.v1.lists.create(createParams);
    assert.equal(list.title, "masto");
    assert.equal(list.repliesPolicy, "followed");
    await client.v1.lists.$select(list.id).accounts.create({ accountIds: [bob.account.id] });
    const listed = await client.v1.lists.$select(list.id).accounts.list();
    assert.deepEqual(
      listed.map((a) => a.id),
      [bob.account.id],
    );
    const ofBob = await client.v1.accounts.$select(bob.account.id).lists.list();
    assert.deepEqual(
      ofBob.map((l) => l.id),
      [list.id],
    );
    const st = await post(bob, { status: "via masto" });
    await drain();
    const statuses = await client.v1.timelines.list.$select(list.id).list();
    assert.deepEqual(
      statuses.map((x) => x.id),
      [st.id],
    );
    const updateParams = { title: "renamed", repliesPolicy: "none" };
    const updated = await client.v1.lists.$select(list.id).update(updateParams);
    assert.equal(updated.title, "renamed");
    assert.equal(updated.repliesPolicy, "none");
    await client.v1.lists.$select(list.id).accounts.remove({ accountIds: [bob.account.id] });
    assert.equal((await client.v1.lists.$select(list.id).accounts.list()).length, 0);
    await client.v1.lists.$select(list.id).remove();
    assert.equal((await client.v1.lists.list()).length, 0);
  });
});
