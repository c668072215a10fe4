import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY = 86_400_000;

describe("notification policy and requests", () => {
  let s: TestServer;
  let n = 0;

  /** A new account, so each test starts from the default policy and no relationships. */
  const fresh = (prefix: string) => s.createUser(`${prefix}${++n}`);
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const dm = (from: TestUser, to: TestUser, extra: Record<string, unknown> = {}) =>
    post(from, { status: `@${to.account.username} psst`, visibility: "direct", ...extra });
  const setPolicy = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v2/notifications/policy", { method: "PATCH", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const policy = async (u: TestUser) => {
    const r = await s.request("/api/v2/notifications/policy", { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  /** Waits until no notifications or fan-out (conversations) job is waiting, delayed or running, and none failed. */
  const settled = async () => {
    const end = Date.now() + 10_000;
    for (;;) {
      const state = await s.ctx.queue.state();
      const mine = state.counts.filter(
        (c) => (c.name === "notifications.create" || c.name === "feeds.fan-out") && c.count > 0,
      );
      assert.ok(!mine.some((c) => c.state === "dead"), "a job died");
      if (mine.length === 0) return;
      if (Date.now() > end) assert.fail(`jobs still pending: ${JSON.stringify(mine)}`);
      await sleep(20);
    }
  };
  const get = async (u: TestUser, path: string) => {
    await settled();
    const r = await s.request(path, { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const v1 = (u: TestUser, query = "") => get(u, `/api/v1/notifications${query}`) as Promise<any[]>;
  const requests = (u: TestUser, query = "") => get(u, `/api/v1/notifications/requests${query}`) as Promise<any[]>;
  const unread = async (u: TestUser) => ({
    v1: (await get(u, "/api/v1/notifications/unread_count")).count,
    v2: (await get(u, "/api/v2/notifications/unread_count")).count,
  });
  const postAs = (u: TestUser, path: string, form?: Record<string, string | string[]>) =>
    s.request(path, { method: "POST", token: u.token, form });

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("accepts everything but silenced accounts by default: nothing is filtered, nothing pending", async () => {
    const bob = await fresh("bob");
    const stranger = await fresh("stranger");
    assert.deepEqual(await policy(bob), {
      for_not_following: "accept",
      for_not_followers: "accept",
      for_new_accounts: "accept",
      for_private_mentions: "accept",
      for_limited_accounts: "filter",
      summary: { pending_requests_count: 0, pending_notifications_count: 0 },
    });
    const st = await dm(stranger, bob);
    const got = await v1(bob);
    assert.deepEqual(
      got.map((x) => [x.type, x.status.id]),
      [["mention", st.id]],
    );
    assert.deepEqual(await requests(bob), []);
    assert.deepEqual(await unread(bob), { v1: 1, v2: 1 });
  });

  it("PATCH takes accept, filter or drop per category; anything else is a 422 that changes nothing", async () => {
    const bob = await fresh("bob");
    const before = await setPolicy(bob, { for_new_accounts: "drop" });
    assert.equal(before.for_new_accounts, "drop");
    assert.equal(before.for_not_following, "accept");
    for (const category of [
      "for_not_following",
      "for_not_followers",
      "for_new_accounts",
      "for_private_mentions",
      "for_limited_accounts",
    ]) {
      for (const bad of ["nope", "", "FILTER", 1, true, null, ["filter"], { a: "filter" }]) {
        const r = await s.request("/api/v2/notifications/policy", {
          method: "PATCH",
          token: bob.token,
          json: { for_private_mentions: "filter", [category]: bad },
        });
        assert.equal(r.status, 422, `${category}=${JSON.stringify(bad)}: ${JSON.stringify(r.body)}`);
        assert.equal(typeof r.body.error, "string");
      }
      // As a form too.
      const r = await s.request("/api/v2/notifications/policy", {
        method: "PATCH",
        token: bob.token,
        form: { [category]: "ignore" },
      });
      assert.equal(r.status, 422);
    }
    assert.deepEqual(await policy(bob), before, "nothing changed");
    // Each value, each category, from a form; the others keep theirs.
    for (const v of ["filter", "drop", "accept"]) {
      const r = await s.request("/api/v2/notifications/policy", {
        method: "PATCH",
        token: bob.token,
        form: { for_limited_accounts: v, for_not_followers: v },
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.for_limited_accounts, v);
      assert.equal(r.body.for_not_followers, v);
      assert.equal(r.body.for_new_accounts, "drop");
    }
    // Unknown keys are ignored, an empty PATCH changes nothing.
    assert.deepEqual(await setPolicy(bob, { other: "x" }), { ...before, for_limited_accounts: "accept" });
  });

  it("filters a private mention from a stranger into a request, out of lists, counts and groups", async () => {
    const bob = await fresh("bob");
    const carol = await fresh("carol");
    const friend = await fresh("friend");
    await s.follow(bob, friend);
    await setPolicy(bob, { for_private_mentions: "filter" });

    const first = await dm(carol, bob);
    const second = await dm(carol, bob);
    const fromFriend = await dm(friend, bob);
    const open = await post(carol, { status: `@${bob.account.username} in the open` });

    // Only what was not filtered: the friend's private mention and the public one.
    const shown = await v1(bob);
    assert.deepEqual(shown.map((x) => x.status.id).sort(), [fromFriend.id, open.id].sort());
    assert.deepEqual(await unread(bob), { v1: 2, v2: 2 });
    const grouped = await get(bob, "/api/v2/notifications");
    assert.deepEqual(grouped.notification_groups.map((g: any) => g.status_id).sort(), [fromFriend.id, open.id].sort());
    // With include_filtered, all four.
    const all = await v1(bob, "?include_filtered=true");
    assert.equal(all.length, 4);
    const allGroups = await get(bob, "/api/v2/notifications?include_filtered=1");
    assert.equal(allGroups.notification_groups.length, 4);
    assert.ok(allGroups.statuses.some((x: any) => x.id === first.id));
    assert.equal((await v1(bob, "?include_filtered=false")).length, 2);

    const reqs = await requests(bob);
    assert.equal(reqs.length, 1);
    const [req] = reqs;
    assert.deepEqual(Object.keys(req).sort(), [
      "account",
      "created_at",
      "id",
      "last_status",
      "notifications_count",
      "updated_at",
    ]);
    assert.equal(req.account.id, carol.account.id);
    assert.equal(req.notifications_count, "2");
    assert.equal(req.last_status.id, second.id);
    assert.match(req.created_at, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual((await policy(bob)).summary, { pending_requests_count: 1, pending_notifications_count: 2 });
    const one = await get(bob, `/api/v1/notifications/requests/${req.id}`);
    assert.deepEqual(one, req);

    // Not someone else's; not a bad id.
    const other = await fresh("other");
    assert.equal((await s.request(`/api/v1/notifications/requests/${req.id}`, { token: other.token })).status, 404);
    assert.equal((await postAs(other, `/api/v1/notifications/requests/${req.id}/accept`)).status, 404);
    assert.equal((await postAs(other, `/api/v1/notifications/requests/${req.id}/dismiss`)).status, 404);
    assert.equal(
      (await s.request("/api/v1/notifications/requests/99999999999999999999", { token: bob.token })).status,
      404,
    );
    assert.equal((await requests(bob)).length, 1, "still there");

    // A private answer to bob's own private mention of carol is not filtered.
    const bobAsks = await dm(bob, carol);
    const answer = await dm(carol, bob, { in_reply_to_id: bobAsks.id });
    assert.ok((await v1(bob)).some((x) => x.status.id === answer.id));
    assert.equal((await requests(bob))[0].notifications_count, "2");
  });

  it("accepting a request merges its notifications and lets the sender through from then on", async () => {
    const bob = await fresh("bob");
    const carol = await fresh("carol");
    await setPolicy(bob, { for_private_mentions: "filter" });
    const a = await dm(carol, bob);
    const [req] = await requests(bob);
    assert.ok(req);
    const r = await postAs(bob, `/api/v1/notifications/requests/${req.id}/accept`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    assert.deepEqual(await get(bob, "/api/v1/notifications/requests/merged"), { merged: true });
    assert.deepEqual(
      (await v1(bob)).map((x) => x.status.id),
      [a.id],
    );
    assert.deepEqual(await unread(bob), { v1: 1, v2: 1 });
    assert.deepEqual(await requests(bob), []);
    assert.equal((await s.request(`/api/v1/notifications/requests/${req.id}`, { token: bob.token })).status, 404);
    assert.deepEqual((await policy(bob)).summary, { pending_requests_count: 0, pending_notifications_count: 0 });
    // Later ones come straight through.
    const b = await dm(carol, bob);
    assert.deepEqual(
      (await v1(bob)).map((x) => x.status.id),
      [b.id, a.id],
    );
    assert.deepEqual(await requests(bob), []);
  });

  it("a filtered private mention stays out of the recipient's conversations until accepted", async () => {
    const bob = await fresh("bob");
    const carol = await fresh("carol");
    await setPolicy(bob, { for_private_mentions: "filter" });
    const st = await dm(carol, bob);
    const convs = (u: TestUser) => get(u, "/api/v1/conversations") as Promise<any[]>;
    assert.deepEqual(await convs(bob), []);
    assert.deepEqual(
      (await convs(carol)).map((c) => c.last_status.id),
      [st.id],
      "the author has theirs",
    );
    const [req] = await requests(bob);
    assert.equal((await postAs(bob, `/api/v1/notifications/requests/${req.id}/accept`)).status, 200);
    const [conv] = await convs(bob);
    assert.equal(conv.last_status.id, st.id);
    assert.equal(conv.unread, true);
    assert.deepEqual(
      conv.accounts.map((a: any) => a.id),
      [carol.account.id],
    );
    const next = await dm(carol, bob, { in_reply_to_id: st.id });
    assert.equal((await convs(bob))[0].last_status.id, next.id);
    assert.equal((await convs(bob)).length, 1);
  });

  it("dismissing a request deletes it and its notifications; the sender stays filtered", async () => {
    const bob = await fresh("bob");
    const dave = await fresh("dave");
    await setPolicy(bob, { for_private_mentions: "filter" });
    await dm(dave, bob);
    const [req] = await requests(bob);
    const r = await postAs(bob, `/api/v1/notifications/requests/${req.id}/dismiss`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    assert.deepEqual(await v1(bob, "?include_filtered=true"), []);
    assert.deepEqual(await requests(bob), []);
    // A new one is filtered again, into a new request.
    const again = await dm(dave, bob);
    const [req2] = await requests(bob);
    assert.notEqual(req2.id, req.id);
    assert.equal(req2.notifications_count, "1");
    assert.equal(req2.last_status.id, again.id);
    assert.deepEqual(await v1(bob), []);
  });

  it("a request whose filtered mentions were all deleted is no longer pending", async () => {
    const bob = await fresh("bob");
    const carol = await fresh("carol");
    await setPolicy(bob, { for_private_mentions: "filter" });
    const a = await dm(carol, bob);
    const b = await dm(carol, bob);
    assert.equal((await requests(bob))[0].notifications_count, "2");
    const del = async (id: string) =>
      assert.equal((await s.request(`/api/v1/statuses/${id}`, { method: "DELETE", token: carol.token })).status, 200);
    await del(b.id);
    const [req] = await requests(bob);
    assert.equal(req.notifications_count, "1");
    assert.equal(req.last_status, undefined, "the deleted post is not shown");
    await del(a.id);
    assert.deepEqual(await requests(bob), []);
    assert.deepEqual((await policy(bob)).summary, { pending_requests_count: 0, pending_notifications_count: 0 });
  });

  it("accepts and dismisses many by id[], passing over unknown and others' ids", async () => {
    const bob = await fresh("bob");
    const other = await fresh("other");
    const senders = [await fresh("s"), await fresh("s"), await fresh("s"), await fresh("s")];
    await setPolicy(bob, { for_private_mentions: "filter" });
    await setPolicy(other, { for_private_mentions: "filter" });
    for (const x of senders) {
      await dm(x, bob);
      await settled(); // one by one: requests are made in the order the jobs run
    }
    await dm(senders[0], other);
    const reqs = await requests(bob);
    assert.equal(reqs.length, 4);
    // Newest first, paged with Link.
    assert.deepEqual(
      reqs.map((r) => r.account.id),
      [...senders].reverse().map((x) => x.account.id),
    );
    const page = await s.request("/api/v1/notifications/requests?limit=2", { token: bob.token });
    assert.equal(page.body.length, 2);
    assert.match(page.headers.get("link") ?? "", new RegExp(`max_id=${page.body[1].id}>; rel="next"`));
    const next = await s.request(`/api/v1/notifications/requests?limit=2&max_id=${page.body[1].id}`, {
      token: bob.token,
    });
    assert.deepEqual(
      next.body.map((r: any) => r.id),
      reqs.slice(2).map((r) => r.id),
    );

    const [otherReq] = await requests(other);
    const byId = (i: number) => reqs.find((r) => r.account.id === senders[i].account.id).id;
    let r = await postAs(bob, "/api/v1/notifications/requests/accept", {
      "id[]": [byId(0), byId(1), otherReq.id, "123", "x"],
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    r = await postAs(bob, "/api/v1/notifications/requests/dismiss", { "id[]": [byId(2), otherReq.id] });
    assert.deepEqual(r.body, {});
    // No id[] at all: nothing happens.
    assert.deepEqual((await postAs(bob, "/api/v1/notifications/requests/accept")).body, {});
    assert.deepEqual((await postAs(bob, "/api/v1/notifications/requests/dismiss")).body, {});

    assert.deepEqual(
      (await requests(bob)).map((x) => x.id),
      [byId(3)],
    );
    assert.deepEqual(
      (await v1(bob)).map((x) => x.account.id).sort(),
      [senders[0].account.id, senders[1].account.id].sort(),
    );
    assert.equal((await v1(bob, "?include_filtered=true")).length, 3, "the dismissed one is gone");
    assert.equal((await requests(other)).length, 1, "the other account's request is untouched");
  });

  it("drop stores nothing; only filterable types and unfollowed senders are affected", async () => {
    const bob = await fresh("bob");
    const stranger = await fresh("stranger");
    const friend = await fresh("friend");
    await s.follow(bob, friend);
    await setPolicy(bob, { for_not_following: "drop" });
    const st = await post(bob, { status: "like me" });
    for (const u of [stranger, friend]) {
      assert.equal((await postAs(u, `/api/v1/statuses/${st.id}/favourite`)).status, 200);
      assert.equal((await postAs(u, `/api/v1/statuses/${st.id}/reblog`)).status, 200);
    }
    await dm(stranger, bob);
    assert.equal((await postAs(stranger, `/api/v1/accounts/${bob.account.id}/follow`)).status, 200);
    const got = await v1(bob, "?include_filtered=true");
    assert.ok(got.length > 0);
    assert.ok(
      got.every((x) => x.account.id === friend.account.id),
      JSON.stringify(got.map((x) => [x.type, x.account.username])),
    );
    assert.deepEqual(await requests(bob), []);

    // An edit's `update` notification is never filtered: a stranger's boost, then an edit.
    const carol = await fresh("carol");
    const hers = await post(carol, { status: "original" });
    await setPolicy(bob, { for_not_following: "accept" });
    assert.equal((await postAs(bob, `/api/v1/statuses/${hers.id}/reblog`)).status, 200);
    await setPolicy(bob, { for_not_following: "drop" });
    const edit = await s.request(`/api/v1/statuses/${hers.id}`, {
      method: "PUT",
      token: carol.token,
      json: { status: "edited" },
    });
    assert.equal(edit.status, 200);
    assert.ok((await v1(bob)).some((x) => x.type === "update" && x.status.id === hers.id));
  });

  it("filter on other categories holds back favourites too, without a request (requests hold mentions)", async () => {
    const bob = await fresh("bob");
    const stranger = await fresh("stranger");
    const st = await post(bob, { status: "fave me" });
    await setPolicy(bob, { for_not_following: "filter" });
    assert.equal((await postAs(stranger, `/api/v1/statuses/${st.id}/favourite`)).status, 200);
    assert.deepEqual(await v1(bob), []);
    assert.deepEqual(await unread(bob), { v1: 0, v2: 0 });
    assert.deepEqual((await get(bob, "/api/v2/notifications")).notification_groups, []);
    const all = await v1(bob, "?include_filtered=true");
    assert.deepEqual(
      all.map((x) => x.type),
      ["favourite"],
    );
    assert.deepEqual(await requests(bob), []);
    // A mention then makes a request; accepting it merges the favourite too.
    await post(stranger, { status: `@${bob.account.username} hi` });
    const [req] = await requests(bob);
    assert.equal(req.notifications_count, "1");
    await postAs(bob, `/api/v1/notifications/requests/${req.id}/accept`);
    assert.deepEqual((await v1(bob)).map((x) => x.type).sort(), ["favourite", "mention"]);
  });

  it("applies the limited, new-account and new-follower categories as Mastodon", async () => {
    const bob = await fresh("bob");
    const silenced = await fresh("silenced");
    await s.ctx.db
      .updateTable("accounts")
      .set({ silenced_at: new Date().toISOString() })
      .where("id", "=", silenced.account.id)
      .execute();
    await setPolicy(bob, { for_limited_accounts: "filter" });
    await post(silenced, { status: `@${bob.account.username} hello` });
    assert.deepEqual(await v1(bob), []);
    assert.equal((await requests(bob)).length, 1);

    // New accounts (younger than 30 days; every test account is).
    const carol = await fresh("carol");
    await setPolicy(bob, { for_limited_accounts: "accept", for_new_accounts: "filter" });
    const young = await post(carol, { status: `@${bob.account.username} new here` });
    await settled(); // the job reads the account when it runs
    await s.ctx.db
      .updateTable("accounts")
      .set({ created_at: new Date(Date.now() - 31 * DAY).toISOString() })
      .where("id", "=", carol.account.id)
      .execute();
    const old = await post(carol, { status: `@${bob.account.username} not new` });
    assert.deepEqual(
      (await v1(bob)).map((x) => x.status.id),
      [old.id],
    );
    assert.ok((await v1(bob, "?include_filtered=true")).some((x) => x.status.id === young.id));

    // Not followers: a follower of less than 3 days does not count.
    const dave = await fresh("dave");
    await s.follow(dave, bob);
    await setPolicy(bob, { for_new_accounts: "accept", for_not_followers: "filter" });
    const recent = await post(dave, { status: `@${bob.account.username} I follow you` });
    await settled();
    await s.ctx.db
      .updateTable("follows")
      .set({ created_at: new Date(Date.now() - 4 * DAY).toISOString() })
      .where("account_id", "=", dave.account.id)
      .execute();
    const settledFollower = await post(dave, { status: `@${bob.account.username} for a while now` });
    const shown = (await v1(bob)).map((x) => x.status.id);
    assert.ok(shown.includes(settledFollower.id));
    assert.ok(!shown.includes(recent.id));
  });

  it("lets staff's mentions through (a highlighted moderation role above the recipient's), as Mastodon", async () => {
    const bob = await fresh("bob");
    const mod = await s.createUser(`mod${++n}`, { role: "Moderator" });
    const peer = await s.createUser(`peer${++n}`, { role: "Moderator" });
    await setPolicy(bob, { for_private_mentions: "drop", for_not_following: "filter" });
    await setPolicy(peer, { for_private_mentions: "drop" });
    const fromMod = await dm(mod, bob);
    const toPeer = await dm(mod, peer);
    const st = await post(bob, { status: "fave" });
    assert.equal((await postAs(mod, `/api/v1/statuses/${st.id}/favourite`)).status, 200);
    assert.deepEqual(
      (await v1(bob)).map((x) => [x.type, x.status.id]),
      [["mention", fromMod.id]],
      "the mention passes, the favourite is filtered",
    );
    assert.deepEqual(
      (await v1(bob, "?include_filtered=true&types[]=favourite")).map((x) => x.status.id),
      [st.id],
    );
    assert.ok(
      !(await v1(peer, "?include_filtered=true")).some((x) => x.status.id === toPeer.id),
      "not above a recipient of the same role",
    );
  });

  it("refuses NUL characters and junk ids with 4xx, changing nothing", async () => {
    const bob = await fresh("bob");
    const carol = await fresh("carol");
    await setPolicy(bob, { for_private_mentions: "filter" });
    await dm(carol, bob);
    const [req] = await requests(bob);
    const patch = await s.request("/api/v2/notifications/policy", {
      method: "PATCH",
      token: bob.token,
      json: { for_not_following: "drop\u0000" },
    });
    assert.equal(patch.status, 400);
    for (const path of ["/api/v1/notifications/requests/accept", "/api/v1/notifications/requests/dismiss"]) {
      assert.equal((await postAs(bob, path, { "id[]": [`${req.id}\u0000`] })).status, 400, path);
      assert.equal((await postAs(bob, `${path}?id[]=%00`)).status, 400, path);
    }
    assert.equal((await s.request("/api/v1/notifications/requests?max_id=%00", { token: bob.token })).status, 400);
    assert.equal((await s.request("/api/v1/notifications?include_filtered=%00", { token: bob.token })).status, 400);
    assert.equal((await s.request("/api/v1/notifications/requests?limit=x", { token: bob.token })).status, 400);
    for (const id of ["0", "18446744073709551616", "-1", "abc"]) {
      const r = await postAs(bob, `/api/v1/notifications/requests/${id}/accept`);
      assert.equal(r.status, 404, id);
    }
    assert.equal((await policy(bob)).for_not_following, "accept");
    assert.deepEqual(
      (await requests(bob)).map((r) => r.id),
      [req.id],
    );
  });

  it("works through masto.js", async () => {
    const bob = await fresh("bob");
    const senders = [await fresh("m"), await fresh("m"), await fresh("m")];
    const client = createRestAPIClient({ url: s.url, accessToken: bob.token });
    const updated = await client.v2.notifications.policy.update({ forPrivateMentions: "filter" });
    assert.equal(updated.forPrivateMentions, "filter");
    assert.equal(updated.forNotFollowing, "accept");
    for (const x of senders) {
      await dm(x, bob);
      await settled(); // one by one: requests are made in the order the jobs run
    }
    await settled();
    const fetched = await client.v2.notifications.policy.fetch();
    assert.deepEqual(fetched.summary, { pendingRequestsCount: 3, pendingNotificationsCount: 3 });
    const seen: string[] = [];
    for await (const page of client.v1.notifications.requests.list({ limit: 2 })) {
      seen.push(...page.map((r) => r.account.id));
      if (seen.length > 5) break;
    }
    assert.deepEqual(
      seen,
      [...senders].reverse().map((x) => x.account.id),
    );
    const reqs = await client.v1.notifications.requests.list();
    const one = await client.v1.notifications.requests.$select(reqs[0].id).fetch();
    assert.equal(one.notificationsCount, "1");
    await client.v1.notifications.requests.$select(reqs[0].id).accept();
    // masto.js types the bulk methods without parameters; it sends what it is given as JSON.
    type Bulk = (params: { id: string[] }) => Promise<void>;
    await (client.v1.notifications.requests.accept as unknown as Bulk)({ id: [reqs[1].id] });
    await (client.v1.notifications.requests.dismiss as unknown as Bulk)({ id: [reqs[2].id] });
    assert.equal((await client.v1.notifications.requests.merged.fetch()).merged, true);
    assert.deepEqual(await client.v1.notifications.requests.list(), []);
    const list = await client.v1.notifications.list();
    assert.deepEqual(list.map((x) => x.account.id).sort(), [reqs[0].account.id, reqs[1].account.id].sort());
  });

  it("checks tokens and scopes", async () => {
    const bob = await fresh("bob");
    const reader = await s.createUser(`reader${++n}`, { scopes: "read:notifications" });
    const writer = await s.createUser(`writer${++n}`, { scopes: "write:notifications" });
    const other = await s.createUser(`otherscope${++n}`, { scopes: "read:statuses write:statuses" });
    const app = await s.appToken("read write");
    const reads = [
      "/api/v2/notifications/policy",
      "/api/v1/notifications/requests",
      "/api/v1/notifications/requests/1",
      "/api/v1/notifications/requests/merged",
    ];
    const writes: [string, string][] = [
      ["PATCH", "/api/v2/notifications/policy"],
      ["PUT", "/api/v2/notifications/policy"],
      ["POST", "/api/v1/notifications/requests/1/accept"],
      ["POST", "/api/v1/notifications/requests/1/dismiss"],
      ["POST", "/api/v1/notifications/requests/accept"],
      ["POST", "/api/v1/notifications/requests/dismiss"],
    ];
    for (const path of reads) {
      assert.equal((await s.request(path)).status, 401, path);
      assert.equal((await s.request(path, { token: writer.token })).status, 403, path);
      assert.equal((await s.request(path, { token: other.token })).status, 403, path);
      assert.equal((await s.request(path, { token: app })).status, 422, path);
      assert.notEqual((await s.request(path, { token: reader.token })).status, 403, path);
    }
    for (const [method, path] of writes) {
      assert.equal((await s.request(path, { method })).status, 401, path);
      assert.equal((await s.request(path, { method, token: reader.token })).status, 403, path);
      assert.equal((await s.request(path, { method, token: other.token })).status, 403, path);
      assert.notEqual((await s.request(path, { method, token: writer.token })).status, 403, path);
    }
    const r = await s.request("/api/v2/notifications/policy", {
      method: "PATCH",
      token: writer.token,
      json: { for_not_following: "drop" },
    });
    assert.equal(r.body.for_not_following, "drop");
    assert.equal((await policy(bob)).for_not_following, "accept", "another account's policy is its own");
  });
});
