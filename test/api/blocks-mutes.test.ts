import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { createScheduler } from "../../src/infra/scheduler/scheduler.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("blocks, mutes and relationships", () => {
  let s: TestServer;
  let n = 0;

  /** A fresh user, so that each test's blocks and mutes stay its own. */
  const user = (name: string, scopes?: string) => s.createUser(`${name}${++n}`, scopes ? { scopes } : {});
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const act = (u: TestUser, id: string, action: string) =>
    s.request(`/api/v1/statuses/${id}/${action}`, { method: "POST", token: u.token });
  const account = (u: TestUser, target: TestUser, action: string, form?: Record<string, string>) =>
    s.request(`/api/v1/accounts/${target.account.id}/${action}`, { method: "POST", token: u.token, form });
  const ids = (body: { id: string }[]) => body.map((x) => x.id);
  const get = async (u: TestUser | undefined, path: string) => {
    const r = await s.request(path, { token: u?.token });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const relationship = async (u: TestUser, target: TestUser) =>
    (await get(u, `/api/v1/accounts/relationships?id[]=${target.account.id}`))[0];
  /** Waits until every queued job (fan-out, notifications) has run. */
  const drain = () => s.settle();
  /** The raw home feed (status ids), as fan-out wrote it. */
  const feed = async (u: TestUser) => s.ctx.repos.feeds.page(u.account.id, { limit: 800 });
  const follows = async (a: TestUser, b: TestUser) =>
    (await s.ctx.repos.follows.followedAmong(a.account.id, [b.account.id])).has(b.account.id);
  const notifications = async (u: TestUser) => {
    await drain();
    return (await get(u, "/api/v1/notifications")) as { type: string; account: { id: string } }[];
  };
  const notificationRows = async (u: TestUser) =>
    s.ctx.db.selectFrom("notifications").selectAll().where("account_id", "=", u.account.id).execute();

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("blocks: Relationship both ways, follows severed, repeatable; unblock too", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    await s.follow(bob, alice);
    const before = await relationship(alice, bob);
    assert.equal(before.following, true);
    assert.equal(before.followed_by, true);
    assert.equal(before.showing_reblogs, true);

    const r = await account(alice, bob, "block");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {
      id: bob.account.id,
      following: false,
      showing_reblogs: false,
      notifying: false,
      languages: null,
      followed_by: false,
      blocking: true,
      blocked_by: false,
      muting: false,
      muting_notifications: false,
      muting_expires_at: null,
      requested: false,
      requested_by: false,
      domain_blocking: false,
      endorsed: false,
      note: "",
    });
    assert.equal(await follows(alice, bob), false);
    assert.equal(await follows(bob, alice), false);
    const theirs = await relationship(bob, alice);
    assert.equal(theirs.blocked_by, true);
    assert.equal(theirs.blocking, false);

    const again = await account(alice, bob, "block");
    assert.equal(again.status, 200);
    assert.equal(again.body.blocking, true);
    const rows = await s.ctx.db.selectFrom("blocks").selectAll().where("account_id", "=", alice.account.id).execute();
    assert.equal(rows.length, 1);
    assert.match(String(rows[0].uri), /^http/);
    assert.deepEqual(ids(await get(alice, "/api/v1/blocks")), [bob.account.id]);

    const un = await account(alice, bob, "unblock");
    assert.equal(un.status, 200);
    assert.equal(un.body.blocking, false);
    assert.equal((await account(alice, bob, "unblock")).body.blocking, false);
    assert.deepEqual(await get(alice, "/api/v1/blocks"), []);
    assert.equal(await follows(alice, bob), false, "unblocking does not restore follows");
  });

  it("bad input and scopes: self 422, missing 404, bad mute parameters 422, scopes checked", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const self = await account(alice, alice, "block");
    assert.equal(self.status, 422);
    assert.match(self.body.error, /yourself/);
    assert.equal((await account(alice, alice, "mute")).status, 422);
    for (const action of ["block", "unblock", "mute", "unmute"]) {
      const missing = await s.request(`/api/v1/accounts/999999999/${action}`, { method: "POST", token: alice.token });
      assert.equal(missing.status, 404, action);
      assert.deepEqual(missing.body, { error: "Record not found" });
      const bad = await s.request(`/api/v1/accounts/abc/${action}`, { method: "POST", token: alice.token });
      assert.equal(bad.status, 404, action);
    }
    const pending = await s.createUser(`pending${++n}`, { confirmed: false });
    const deleted = await user("deleted");
    await s.ctx.repos.accounts.update(deleted.account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "deleted",
    });
    for (const action of ["block", "unblock", "mute", "unmute"]) {
      assert.equal((await account(alice, pending, action)).status, 404, action);
      assert.equal((await account(alice, deleted, action)).status, 410, action);
    }
    const bad: Record<string, string>[] = [
      { duration: "-5" },
      { duration: "soon" },
      { duration: "1.5" },
      { duration: "99999999999999" },
      { notifications: "maybe" },
    ];
    for (const form of bad) {
      const r = await account(alice, bob, "mute", form);
      assert.equal(r.status, 422, JSON.stringify(form));
      assert.match(r.body.error, /^Validation failed/);
    }
    const none = await s.ctx.db.selectFrom("mutes").selectAll().where("account_id", "=", alice.account.id).execute();
    assert.equal(none.length, 0, "bad input stores nothing");
    const bl = await s.ctx.db.selectFrom("blocks").selectAll().where("account_id", "=", alice.account.id).execute();
    assert.equal(bl.length, 0);

    // Scopes: no token 401, a token without the scope 403, an app token 422.
    const reader = await s.createUser(`reader${++n}`, { scopes: "read" });
    const blocksOnly = await s.createUser(`blocker${++n}`, { scopes: "write:blocks read:blocks" });
    const follow = await s.createUser(`follow${++n}`, { scopes: "follow" });
    const app = await s.appToken("read write follow");
    for (const [action, scope] of [
      ["block", "write:blocks"],
      ["unblock", "write:blocks"],
      ["mute", "write:mutes"],
      ["unmute", "write:mutes"],
    ] as const) {
      const path = `/api/v1/accounts/${bob.account.id}/${action}`;
      assert.equal((await s.request(path, { method: "POST" })).status, 401, action);
      assert.equal((await s.request(path, { method: "POST", token: reader.token })).status, 403, action);
      assert.equal((await s.request(path, { method: "POST", token: app })).status, 422, action);
      const narrow = await s.request(path, { method: "POST", token: blocksOnly.token });
      assert.equal(narrow.status, scope === "write:blocks" ? 200 : 403, action);
      assert.equal((await s.request(path, { method: "POST", token: follow.token })).status, 200, action);
    }
    for (const [path, scope] of [
      ["/api/v1/blocks", "read:blocks"],
      ["/api/v1/mutes", "read:mutes"],
      ["/api/v1/accounts/relationships", "read:follows"],
    ] as const) {
      assert.equal((await s.request(path)).status, 401, path);
      assert.equal((await s.request(path, { token: reader.token })).status, 200, path);
      assert.equal((await s.request(path, { token: app })).status, 422, path);
      const narrow = await s.request(path, { token: blocksOnly.token });
      assert.equal(narrow.status, scope === "read:blocks" ? 200 : 403, path);
    }
    assert.equal((await s.request("/api/v1/blocks?limit=-1", { token: alice.token })).status, 400);
    assert.equal((await s.request("/api/v1/mutes?limit=x", { token: alice.token })).status, 400);
  });

  it("mutes: notifications flag, duration, MutedAccount list, follows kept, muting again updates", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await s.follow(alice, bob);
    const r = await account(alice, bob, "mute");
    assert.equal(r.status, 200);
    assert.equal(r.body.muting, true);
    assert.equal(r.body.muting_notifications, true);
    assert.equal(r.body.muting_expires_at, null);
    assert.equal(r.body.following, true, "a mute keeps the follow");
    assert.equal(await follows(alice, bob), true);

    const t0 = Date.now();
    const timed = await s.request(`/api/v1/accounts/${carol.account.id}/mute`, {
      method: "POST",
      token: alice.token,
      json: { notifications: false, duration: 3600 },
    });
    assert.equal(timed.status, 200);
    assert.equal(timed.body.muting_notifications, false);
    const expires = Date.parse(timed.body.muting_expires_at);
    assert.ok(expires >= t0 + 3600_000 - 1000 && expires <= Date.now() + 3600_000 + 1000);

    const list = await get(alice, "/api/v1/mutes");
    assert.deepEqual(ids(list), [carol.account.id, bob.account.id]);
    assert.equal(list[0].mute_expires_at, timed.body.muting_expires_at);
    assert.equal(list[1].mute_expires_at, null);
    assert.equal(list[0].username, carol.account.username);

    // Muting again updates the flag and the expiry, keeping the row (and its place in the list).
    const again = await account(alice, carol, "mute", { notifications: "true", duration: "0" });
    assert.equal(again.body.muting_notifications, true);
    assert.equal(again.body.muting_expires_at, null);
    assert.deepEqual(ids(await get(alice, "/api/v1/mutes")), [carol.account.id, bob.account.id]);

    const un = await account(alice, bob, "unmute");
    assert.equal(un.body.muting, false);
    assert.equal(un.body.following, true);
    assert.equal((await account(alice, bob, "unmute")).status, 200);
    assert.deepEqual(ids(await get(alice, "/api/v1/mutes")), [carol.account.id]);
  });

  it("an expired mute counts as absent everywhere and the periodic task purges it", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await account(alice, bob, "mute", { duration: "60" });
    const st = await post(bob, { status: "while muted" });
    await drain();
    const pub = "/api/v1/timelines/public?local=true&limit=40";
    assert.ok(!ids(await get(alice, pub)).includes(st.id));
    assert.equal((await relationship(alice, bob)).muting, true);
    // The mute runs out.
    await s.ctx.db
      .updateTable("mutes")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("account_id", "=", alice.account.id)
      .execute();
    const rel = await relationship(alice, bob);
    assert.equal(rel.muting, false);
    assert.equal(rel.muting_expires_at, null);
    assert.deepEqual(await get(alice, "/api/v1/mutes"), []);
    assert.ok(ids(await get(alice, pub)).includes(st.id));
    const mention = await post(bob, { status: `@${alice.account.username} hello again` });
    const got = await notifications(alice);
    assert.ok(got.some((x) => x.type === "mention" && (x as any).status.id === mention.id));

    // The server's scheduler runs the purge (asked to run it now rather than in five minutes).
    await (await createScheduler(s.ctx)).runSoon("mutes.purge-expired");
    const mutesOf = () => s.ctx.db.selectFrom("mutes").selectAll().where("account_id", "=", alice.account.id).execute();
    for (let i = 0; i < 250 && (await mutesOf()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await mutesOf()).length, 0, "the expired mute was purged");
  });

  it("lists blocks and mutes by row id with Link headers, limit 40 by default", async () => {
    const alice = await user("alice");
    const targets = [await user("t"), await user("t"), await user("t")];
    for (const t of targets) {
      await account(alice, t, "block");
      await account(alice, t, "mute");
    }
    for (const path of ["/api/v1/blocks", "/api/v1/mutes"]) {
      const all = await get(alice, path);
      assert.deepEqual(ids(all), targets.map((t) => t.account.id).reverse(), "newest first");
      const first = await s.request(`${path}?limit=2`, { token: alice.token });
      assert.deepEqual(ids(first.body), [targets[2].account.id, targets[1].account.id]);
      const link = first.headers.get("link") ?? "";
      const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
      const prev = /<([^>]+)>; rel="prev"/.exec(link)?.[1];
      assert.ok(next && prev, link);
      const table = path.endsWith("blocks") ? "blocks" : "mutes";
      const rows = await s.ctx.db
        .selectFrom(table)
        .select(["id", "target_account_id"])
        .where("account_id", "=", alice.account.id)
        .execute();
      const rowOf = (t: TestUser) => String(rows.find((x) => String(x.target_account_id) === t.account.id)?.id);
      assert.equal(new URL(next).searchParams.get("max_id"), rowOf(targets[1]), "cursor is the row id");
      assert.equal(new URL(prev).searchParams.get("min_id"), rowOf(targets[2]));
      const u = new URL(next);
      const second = await s.request(u.pathname + u.search, { token: alice.token });
      assert.deepEqual(ids(second.body), [targets[0].account.id]);
      const newer = await s.request(`${path}?min_id=${rowOf(targets[0])}&limit=1`, { token: alice.token });
      assert.deepEqual(ids(newer.body), [targets[1].account.id]);
      const empty = await s.request(`${path}?max_id=${rowOf(targets[0])}`, { token: alice.token });
      assert.deepEqual(empty.body, []);
      assert.match(empty.headers.get("link") ?? "", /rel="prev"/);
    }
  });

  it("relationships: id[], with_suspended, unknown ids skipped, follows and mutes shown", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const sus = await user("sus");
    await s.ctx.repos.accounts.update(sus.account.id, { suspended_at: new Date().toISOString() });
    await s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: alice.account.id,
      target_account_id: bob.account.id,
      show_reblogs: false,
      created_at: new Date().toISOString(),
    });
    await s.follow(carol, alice);
    await account(alice, carol, "mute", { notifications: "false" });
    await account(bob, alice, "block");
    const q = `id[]=${bob.account.id}&id[]=999999999&id[]=${carol.account.id}&id[]=${bob.account.id}&id[]=${sus.account.id}`;
    const rels = await get(alice, `/api/v1/accounts/relationships?${q}`);
    assert.deepEqual(ids(rels), [bob.account.id, carol.account.id]);
    // bob blocked alice: the block ended alice's follow.
    assert.equal(rels[0].following, false);
    assert.equal(rels[0].blocked_by, true);
    assert.equal(rels[1].followed_by, true);
    assert.equal(rels[1].muting, true);
    assert.equal(rels[1].muting_notifications, false);
    const withSus = await get(alice, `/api/v1/accounts/relationships?${q}&with_suspended=true`);
    assert.deepEqual(ids(withSus), [bob.account.id, carol.account.id, sus.account.id]);
    assert.deepEqual(await get(alice, "/api/v1/accounts/relationships"), []);
    const many = Array.from({ length: 1001 }, (_, i) => `id[]=${i + 1}`).join("&");
    const tooMany = await s.request(`/api/v1/accounts/relationships?${many}`, { token: alice.token });
    assert.equal(tooMany.status, 400, "requests are bounded by the parameter limit (1,000)");
    const bad = await s.request(`/api/v1/accounts/relationships?id[]=${bob.account.id}&with_suspended=maybe`, {
      token: alice.token,
    });
    assert.equal(bad.status, 422);

    const dave = await user("dave");
    const now = new Date().toISOString();
    await s.ctx.db
      .insertInto("follows")
      .values({
        id: s.ctx.ids.next(),
        account_id: alice.account.id,
        target_account_id: dave.account.id,
        show_reblogs: false,
        notify: true,
        languages: JSON.stringify(["en"]),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const d = (await get(alice, `/api/v1/accounts/relationships?id=${dave.account.id}`))[0];
    assert.equal(d.following, true);
    assert.equal(d.showing_reblogs, false);
    assert.equal(d.notifying, true);
    assert.deepEqual(d.languages, ["en"]);
  });

  it("a block takes each one's posts out of the other's home feed, and fan-out skips them", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await s.follow(alice, bob);
    await s.follow(bob, alice);
    await s.follow(alice, carol);
    const b1 = await post(bob, { status: "bob before" });
    const a1 = await post(alice, { status: "alice before" });
    const c1 = await post(carol, { status: "carol's" });
    await drain();
    const boost = (await act(carol, b1.id, "reblog")).body;
    await drain();
    assert.ok((await feed(alice)).includes(b1.id));
    assert.ok((await feed(alice)).includes(c1.id));
    assert.ok((await feed(bob)).includes(a1.id));
    // A feed holds only one copy of a post: carol's boost of b1 was left out of alice's.
    assert.ok(!(await feed(alice)).includes(boost.id));

    await account(alice, bob, "block");
    assert.ok(!(await feed(alice)).includes(b1.id), "bob's post left alice's feed");
    assert.ok(!(await feed(bob)).includes(a1.id), "and alice's left bob's");
    assert.ok((await feed(alice)).includes(c1.id));

    // Even with a follow recorded again behind the block's back, fan-out leaves them out.
    await s.follow(alice, bob);
    await s.follow(bob, alice);
    const b2 = await post(bob, { status: "bob after" });
    const a2 = await post(alice, { status: "alice after" });
    const boost2 = (await act(carol, b2.id, "reblog")).body;
    await drain();
    assert.ok(!(await feed(alice)).includes(b2.id));
    assert.ok(!(await feed(alice)).includes(boost2.id), "nor carol's boost of bob's post");
    assert.ok(!(await feed(bob)).includes(a2.id));
    const home = ids(await get(alice, "/api/v1/timelines/home?limit=40"));
    assert.ok(!home.includes(b2.id) && !home.includes(boost2.id));
    assert.ok(home.includes(a2.id));
  });

  it("a mute clears the muted account's posts and boosts from home, and fan-out skips them", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await s.follow(alice, bob);
    await s.follow(alice, carol);
    const c1 = await post(carol, { status: "carol" });
    await drain();
    const boost = (await act(bob, c1.id, "reblog")).body;
    const b1 = await post(bob, { status: "bob" });
    await drain();
    assert.ok((await feed(alice)).includes(b1.id));

    await account(alice, bob, "mute");
    assert.ok(!(await feed(alice)).includes(b1.id));
    assert.ok((await feed(alice)).includes(c1.id), "carol's own post stays");

    const b2 = await post(bob, { status: "bob muted" });
    const c2 = await post(carol, { status: "carol again" });
    await drain();
    const boost2 = (await act(bob, c2.id, "reblog")).body;
    await drain();
    const f = await feed(alice);
    assert.ok(!f.includes(b2.id), "no posts of a muted account");
    assert.ok(!f.includes(boost2.id), "no boosts by a muted account");
    assert.ok(f.includes(c2.id));
    assert.ok(!(await feed(alice)).includes(boost.id));
    // A post by a muted author boosted by someone else stays out too.
    await account(alice, bob, "unmute");
    await account(alice, carol, "mute");
    const c3 = await post(carol, { status: "carol muted" });
    await drain();
    const boost3 = (await act(bob, c3.id, "reblog")).body;
    await drain();
    assert.ok(!(await feed(alice)).includes(boost3.id));
    assert.ok(!ids(await get(alice, "/api/v1/timelines/home?limit=40")).includes(boost3.id));
  });

  it("home leaves out posts mentioning an account the owner blocks or mutes, as Mastodon's home filter", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const dave = await user("dave");
    await s.follow(alice, dave);
    const aboutCarol = await post(dave, { status: `hi @${carol.account.username}` });
    await drain();
    assert.ok((await feed(alice)).includes(aboutCarol.id));
    await account(alice, carol, "mute");
    assert.ok(!(await feed(alice)).includes(aboutCarol.id), "a mute clears posts mentioning the muted account");
    await account(alice, bob, "block");
    const aboutBob = await post(dave, { status: `hi @${bob.account.username}` });
    const plain = await post(dave, { status: "hi all" });
    const own = await post(alice, { status: `me about @${bob.account.username}` });
    await drain();
    const f = await feed(alice);
    assert.ok(!f.includes(aboutBob.id), "fan-out skips a post mentioning a blocked account");
    assert.ok(f.includes(plain.id));
    assert.ok(f.includes(own.id), "the owner's own posts always reach their feed");
  });

  it("public and hashtag timelines, context, favourited_by and reblogged_by leave blocked and muted accounts out", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const dave = await user("dave");
    const root = await post(dave, { status: "root #blockstest" });
    const byBob = await post(bob, { status: "bob replies #blockstest", in_reply_to_id: root.id });
    const byCarol = await post(carol, { status: "carol replies #blockstest", in_reply_to_id: root.id });
    const byDave = await post(dave, { status: "dave #blockstest" });
    for (const u of [bob, carol, dave]) {
      await act(u, root.id, "favourite");
      await act(u, root.id, "reblog");
    }
    await drain();
    const pub = "/api/v1/timelines/public?local=true&limit=40";
    const tag = "/api/v1/timelines/tag/blockstest?limit=40";
    const ctxPath = `/api/v1/statuses/${root.id}/context`;
    const favBy = `/api/v1/statuses/${root.id}/favourited_by`;
    const reblBy = `/api/v1/statuses/${root.id}/reblogged_by`;
    assert.ok(ids(await get(alice, tag)).includes(byBob.id));
    assert.deepEqual(ids((await get(alice, ctxPath)).descendants), [byBob.id, byCarol.id]);

    await account(alice, bob, "block");
    await account(alice, carol, "mute");
    const p = ids(await get(alice, pub));
    assert.ok(p.includes(byDave.id) && p.includes(root.id));
    assert.ok(!p.includes(byBob.id) && !p.includes(byCarol.id));
    assert.deepEqual(ids(await get(alice, tag)), [byDave.id, root.id]);
    // Left out in SQL, so a page is full: no holes where the hidden posts were.
    assert.deepEqual(ids(await get(alice, "/api/v1/timelines/tag/blockstest?limit=2")), [byDave.id, root.id]);
    assert.deepEqual((await get(alice, ctxPath)).descendants, []);
    assert.deepEqual(ids(await get(alice, favBy)), [dave.account.id]);
    assert.deepEqual(ids(await get(alice, reblBy)), [dave.account.id]);
    // Others still see everything; anonymous readers too.
    assert.equal(ids(await get(undefined, favBy)).length, 3);
    assert.deepEqual(ids((await get(dave, ctxPath)).descendants), [byBob.id, byCarol.id]);
    // Ancestors: a reply's parent by a blocked account is left out of the thread.
    const underBob = await post(dave, { status: "under bob", in_reply_to_id: byBob.id });
    const thread = await get(alice, `/api/v1/statuses/${underBob.id}/context`);
    assert.deepEqual(ids(thread.ancestors), [root.id]);

    // The viewer who is blocked (bob) does not see alice's posts anywhere.
    const a1 = await post(alice, { status: "alice #blockstest" });
    await drain();
    assert.ok(!ids(await get(bob, pub)).includes(a1.id));
    assert.ok(!ids(await get(bob, tag)).includes(a1.id));
    assert.equal((await s.request(`/api/v1/statuses/${a1.id}`, { token: bob.token })).status, 404);
    assert.deepEqual(await get(bob, `/api/v1/statuses?id[]=${a1.id}`), []);
    const profile = await s.request(`/api/v1/accounts/${alice.account.id}/statuses`, { token: bob.token });
    assert.equal(profile.status, 200);
    assert.deepEqual(profile.body, [], "a blocker's posts are hidden from the blocked account's view of the profile");
    assert.equal((await act(alice, a1.id, "pin")).status, 200);
    const pinned = await s.request(`/api/v1/accounts/${alice.account.id}/statuses?pinned=true`, { token: bob.token });
    assert.deepEqual(pinned.body, []);
    assert.equal((await s.request(`/api/v1/statuses/${a1.id}/context`, { token: bob.token })).status, 404);
    assert.equal((await s.request(`/api/v1/statuses/${a1.id}/favourited_by`, { token: bob.token })).status, 404);
    assert.equal((await act(bob, a1.id, "favourite")).status, 404);
    assert.equal((await act(bob, a1.id, "reblog")).status, 404);
    const reply = await s.request("/api/v1/statuses", {
      method: "POST",
      token: bob.token,
      json: { status: "reply", in_reply_to_id: a1.id },
    });
    assert.equal(reply.status, 404);
    // The blocker may not favourite or boost the blocked account's posts (403, as Mastodon), but may bookmark them.
    const fav = await act(alice, byBob.id, "favourite");
    assert.equal(fav.status, 403);
    assert.deepEqual(fav.body, { error: "This action is not allowed" });
    assert.equal((await act(alice, byBob.id, "reblog")).status, 403);
    assert.equal((await act(alice, byBob.id, "bookmark")).status, 200);
    // The blocker may still open the blocked account's posts and profile (Mastodon).
    assert.equal((await s.request(`/api/v1/statuses/${byBob.id}`, { token: alice.token })).status, 200);
    assert.deepEqual(ids(await get(alice, `/api/v1/statuses?id[]=${byBob.id}`)), [byBob.id]);
    assert.ok(ids(await get(alice, `/api/v1/accounts/${bob.account.id}/statuses`)).includes(byBob.id));
    assert.ok(ids(await get(alice, `/api/v1/accounts/${carol.account.id}/statuses`)).includes(byCarol.id));
  });

  it("no notification from a blocked or muted account; a block deletes theirs, a mute hides them", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const dave = await user("dave");
    const mine = await post(alice, { status: "alice's post" });
    await act(dave, mine.id, "favourite");
    await post(dave, { status: `@${alice.account.username} from dave` });
    await post(bob, { status: `@${alice.account.username} from bob` });
    await act(carol, mine.id, "favourite");
    const got = await notifications(alice);
    assert.equal(got.length, 4);

    // A block deletes the blocked account's notifications; a mute hides the muted account's.
    await account(alice, bob, "block");
    await account(alice, carol, "mute");
    const after1 = await notifications(alice);
    assert.ok(after1.every((x) => x.account.id === dave.account.id));
    assert.equal(after1.length, 2);
    const rows = await notificationRows(alice);
    assert.ok(!rows.some((r) => String(r.from_account_id) === bob.account.id), "bob's were deleted");
    assert.ok(
      rows.some((r) => String(r.from_account_id) === carol.account.id),
      "carol's are kept, hidden",
    );
    const unread = await get(alice, "/api/v1/notifications/unread_count");
    assert.equal(unread.count, 2, "hidden ones are not counted");
    const page = await s.request("/api/v1/notifications?limit=2", { token: alice.token });
    assert.equal(page.body.length, 2, "a page is full: hidden ones are left out in SQL");

    // New ones are not created: mentions, favourites, boosts.
    const mine2 = await post(alice, { status: "another" });
    await act(carol, mine2.id, "favourite");
    await act(carol, mine2.id, "reblog");
    await post(carol, { status: `@${alice.account.username} muted mention` });
    await post(bob, { status: `@${alice.account.username} blocked mention` });
    await drain();
    const count = (await notificationRows(alice)).length;
    assert.equal(count, rows.length, "nothing new stored");

    // A mute without notifications lets them through (and shows the old ones again).
    await account(alice, carol, "mute", { notifications: "false" });
    const m = await post(carol, { status: `@${alice.account.username} mention again` });
    const after2 = await notifications(alice);
    assert.ok(after2.some((x) => x.type === "mention" && (x as any).status.id === m.id));
    assert.ok(after2.some((x) => x.type === "favourite" && x.account.id === carol.account.id));
    await account(alice, carol, "unmute");
    await account(alice, bob, "unblock");
  });

  it("unfavourite, unreblog and unbookmark succeed after the author blocks the caller, and repeat harmlessly", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const st = await post(alice, { status: "to undo" });
    assert.equal((await act(bob, st.id, "favourite")).status, 200);
    assert.equal((await act(bob, st.id, "bookmark")).status, 200);
    const boost = await act(bob, st.id, "reblog");
    assert.equal(boost.status, 200);
    const counts = async () => {
      const r = await get(alice, `/api/v1/statuses/${st.id}`);
      return [r.favourites_count, r.reblogs_count];
    };
    assert.deepEqual(await counts(), [1, 1]);

    await account(alice, bob, "block");
    assert.equal((await s.request(`/api/v1/statuses/${st.id}`, { token: bob.token })).status, 404);
    const uf = await act(bob, st.id, "unfavourite");
    assert.equal(uf.status, 200, JSON.stringify(uf.body));
    assert.equal(uf.body.favourited, false);
    const ub = await act(bob, st.id, "unbookmark");
    assert.equal(ub.status, 200);
    assert.equal(ub.body.bookmarked, false);
    const ur = await act(bob, st.id, "unreblog");
    assert.equal(ur.status, 200);
    assert.equal(ur.body.reblogged, false);
    assert.deepEqual(await counts(), [0, 0]);
    assert.equal((await s.request(`/api/v1/statuses/${boost.body.id}`, { token: alice.token })).status, 410);
    assert.deepEqual(await get(bob, "/api/v1/bookmarks"), []);

    // Again: nothing left to undo and the post is hidden from bob, so 404 as Mastodon; nothing changes.
    for (const action of ["unfavourite", "unbookmark", "unreblog"]) {
      const r = await act(bob, st.id, action);
      assert.equal(r.status, 404, action);
    }
    assert.deepEqual(await counts(), [0, 0]);
    const after = await get(alice, `/api/v1/statuses/${st.id}`);
    assert.equal(after.content, "<p>to undo</p>");
    // The blocker's own favourite and undo are unaffected.
    assert.equal((await act(alice, st.id, "favourite")).body.favourites_count, 1);
    assert.equal((await act(alice, st.id, "unfavourite")).body.favourites_count, 0);
  });
  it("works through masto", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const blocked = await client.v1.accounts.$select(bob.account.id).block();
    assert.equal(blocked.blocking, true);
    const muted = await client.v1.accounts.$select(bob.account.id).mute({ notifications: false, duration: 600 });
    assert.equal(muted.muting, true);
    assert.equal(muted.mutingNotifications, false);
    const [rel] = await client.v1.accounts.relationships.fetch({ id: [bob.account.id] });
    assert.equal(rel.blocking, true);
    assert.equal(rel.muting, true);
    const blocks = await client.v1.blocks.list();
    assert.deepEqual(
      blocks.map((a) => a.id),
      [bob.account.id],
    );
    const mutes = await client.v1.mutes.list();
    assert.equal(mutes[0].id, bob.account.id);
    assert.ok((mutes[0] as unknown as { muteExpiresAt: string }).muteExpiresAt);
    assert.equal((await client.v1.accounts.$select(bob.account.id).unmute()).muting, false);
    assert.equal((await client.v1.accounts.$select(bob.account.id).unblock()).blocking, false);
  });
});
