import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { inOneWindow } from "../helpers/rate-limits.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("statuses: favourite, boost, bookmark, mute, pin", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const post = async (u: TestUser, json: Record<string, unknown>) =>
    (await s.request("/api/v1/statuses", { method: "POST", token: u.token, json })).body;
  const act = (u: TestUser, id: string, action: string, json?: unknown) =>
    s.request(`/api/v1/statuses/${id}/${action}`, { method: "POST", token: u.token, json });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    await s.follow(bob, alice);
  });
  after(() => s.close());

  it("favourites and unfavourites, harmlessly repeated", async () => {
    const st = await post(alice, { status: "like me" });
    const f1 = await act(bob, st.id, "favourite");
    assert.equal(f1.status, 200);
    assert.equal(f1.body.favourited, true);
    assert.equal(f1.body.favourites_count, 1);
    assert.equal((await act(bob, st.id, "favourite")).body.favourites_count, 1);
    const by = await s.request(`/api/v1/statuses/${st.id}/favourited_by`);
    assert.deepEqual(
      by.body.map((a: { id: string }) => a.id),
      [bob.account.id],
    );
    assert.match(by.headers.get("link") ?? "", /rel="prev"/);
    const u1 = await act(bob, st.id, "unfavourite");
    assert.equal(u1.body.favourited, false);
    assert.equal(u1.body.favourites_count, 0);
    assert.equal((await act(bob, st.id, "unfavourite")).body.favourites_count, 0);
    assert.equal((await act(bob, "123456789", "favourite")).status, 404);
  });

  it("checks scopes of actions", async () => {
    const st = await post(alice, { status: "scopes" });
    const onlyStatuses = await s.createUser("onlystatuses", { scopes: "write:statuses" });
    assert.equal((await act(onlyStatuses, st.id, "favourite")).status, 403);
    assert.equal((await act(onlyStatuses, st.id, "bookmark")).status, 403);
    assert.equal((await act(onlyStatuses, st.id, "mute")).status, 403);
    assert.equal((await act(onlyStatuses, st.id, "pin")).status, 403);
    assert.equal((await act(onlyStatuses, st.id, "reblog")).status, 200);
    const fav = await s.createUser("favonly", { scopes: "write:favourites" });
    assert.equal((await act(fav, st.id, "favourite")).status, 200);
    assert.equal((await act(fav, st.id, "reblog")).status, 403);
    assert.equal((await s.request(`/api/v1/statuses/${st.id}/favourite`, { method: "POST" })).status, 401);
    const app = await s.appToken("write");
    assert.equal((await s.request(`/api/v1/statuses/${st.id}/favourite`, { method: "POST", token: app })).status, 422);
  });

  it("boosts with visibility, once, and undoes", async () => {
    const st = await post(alice, { status: "boost me" });
    const r = await act(bob, st.id, "reblog", { visibility: "unlisted" });
    assert.equal(r.status, 200);
    assert.equal(r.body.reblog.id, st.id);
    assert.equal(r.body.visibility, "unlisted");
    assert.equal(r.body.reblog.reblogged, true);
    assert.equal(r.body.reblog.reblogs_count, 1);
    assert.equal(r.body.content, "");
    assert.equal((await act(bob, st.id, "reblog")).body.id, r.body.id);
    assert.equal((await act(carol, r.body.id, "reblog")).body.reblog.id, st.id);
    assert.equal((await act(bob, st.id, "reblog", { visibility: "direct" })).status, 422);
    const by = await s.request(`/api/v1/statuses/${st.id}/reblogged_by`);
    assert.deepEqual(by.body.map((a: { id: string }) => a.id).sort(), [bob.account.id, carol.account.id].sort());
    const reply = await s.request("/api/v1/statuses", {
      method: "POST",
      token: carol.token,
      json: { status: "reply to a boost", in_reply_to_id: r.body.id },
    });
    assert.equal(reply.body.in_reply_to_id, st.id);
    const u = await act(bob, st.id, "unreblog");
    assert.equal(u.status, 200);
    assert.equal(u.body.id, st.id);
    assert.equal(u.body.reblogged, false);
    assert.equal(u.body.reblogs_count, 1);
    assert.equal(u.body.replies_count, 1);
    assert.equal((await s.request(`/api/v1/statuses/${r.body.id}`)).status, 410);
    assert.equal((await act(bob, st.id, "unreblog")).status, 200);
  });

  it("private and direct posts cannot be boosted by others", async () => {
    const priv = await post(alice, { status: "mine", visibility: "private" });
    assert.equal((await act(bob, priv.id, "reblog")).status, 403);
    assert.equal((await act(carol, priv.id, "reblog")).status, 404);
    const own = await act(alice, priv.id, "reblog");
    assert.equal(own.status, 200);
    assert.equal(own.body.visibility, "private");
    assert.equal((await s.request(`/api/v1/statuses/${own.body.id}`, { token: carol.token })).status, 404);
    assert.equal((await act(carol, priv.id, "favourite")).status, 404);
    assert.equal((await s.request(`/api/v1/statuses/${priv.id}/favourited_by`)).status, 404);
    assert.equal((await s.request(`/api/v1/statuses/${priv.id}/reblogged_by`, { token: carol.token })).status, 404);
  });

  it("undo on a post no longer visible succeeds", async () => {
    const priv = await post(alice, { status: "for followers", visibility: "private" });
    assert.equal((await act(bob, priv.id, "favourite")).status, 200);
    assert.equal((await act(bob, priv.id, "bookmark")).status, 200);
    await s.ctx.repos.follows.delete(bob.account.id, alice.account.id);
    try {
      assert.equal((await s.request(`/api/v1/statuses/${priv.id}`, { token: bob.token })).status, 404);
      const u = await act(bob, priv.id, "unfavourite");
      assert.equal(u.status, 200);
      assert.equal(u.body.favourites_count, 0);
      assert.equal((await act(bob, priv.id, "unbookmark")).status, 200);
      assert.equal((await act(bob, priv.id, "favourite")).status, 404);
    } finally {
      await s.follow(bob, alice);
    }
  });

  it("bookmarks and thread mutes", async () => {
    const st = await post(alice, { status: "keep" });
    assert.equal((await act(bob, st.id, "bookmark")).body.bookmarked, true);
    assert.equal((await act(bob, st.id, "bookmark")).body.bookmarked, true);
    assert.equal((await act(bob, st.id, "unbookmark")).body.bookmarked, false);
    assert.equal((await act(bob, st.id, "mute")).body.muted, true);
    const reply = await post(carol, { status: "in thread", in_reply_to_id: st.id });
    const seen = await s.request(`/api/v1/statuses/${reply.id}`, { token: bob.token });
    assert.equal(seen.body.muted, true);
    assert.equal((await act(bob, st.id, "unmute")).body.muted, false);
    assert.equal((await act(bob, st.id, "unmute")).body.muted, false);
  });

  it("pins own posts, at most 5, not direct, not others'", async () => {
    const other = await post(bob, { status: "bob's" });
    const pinOther = await act(alice, other.id, "pin");
    assert.equal(pinOther.status, 422);
    const dm = await post(alice, { status: "@bob dm", visibility: "direct" });
    assert.equal((await act(alice, dm.id, "pin")).status, 422);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await post(alice, { status: `pin ${i}`, visibility: i === 0 ? "private" : "public" })).id);
    for (let i = 0; i < 5; i++) {
      const r = await act(alice, ids[i], "pin");
      assert.equal(r.status, 200);
      assert.equal(r.body.pinned, true);
    }
    assert.equal((await act(alice, ids[0], "pin")).status, 200);
    const sixth = await act(alice, ids[5], "pin");
    assert.equal(sixth.status, 422);
    assert.match(sixth.body.error, /maximum/);
    // A deleted pinned post frees its place.
    await s.request(`/api/v1/statuses/${ids[1]}`, { method: "DELETE", token: alice.token });
    assert.equal((await act(alice, ids[5], "pin")).status, 200);
    const pinned = await s.request(`/api/v1/accounts/${alice.account.id}/statuses?pinned=true`);
    assert.deepEqual(
      pinned.body.map((x: { id: string }) => x.id),
      [ids[5], ids[4], ids[3], ids[2]],
    );
    const pinnedForBob = await s.request(`/api/v1/accounts/${alice.account.id}/statuses?pinned=true`, {
      token: bob.token,
    });
    assert.equal(pinnedForBob.body.length, 5);
    assert.equal((await act(alice, ids[5], "unpin")).body.pinned, false);
    assert.equal((await act(alice, ids[5], "unpin")).status, 200);
  });

  it("throttles deletes and unboosts to 30 per 30 minutes per user", async () => {
    await inOneWindow(30 * 60_000);
    const dave = await s.createUser("dave");
    const headers = { "x-forwarded-for": "203.0.113.90" };
    const ids: string[] = [];
    for (let i = 0; i < 31; i++) ids.push((await post(dave, { status: `throwaway ${i}` })).id);
    for (let i = 0; i < 30; i++) {
      const r = await s.request(`/api/v1/statuses/${ids[i]}`, { method: "DELETE", token: dave.token, headers });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("x-ratelimit-limit"), "30");
    }
    const over = await s.request(`/api/v1/statuses/${ids[30]}`, { method: "DELETE", token: dave.token, headers });
    assert.equal(over.status, 429);
    assert.equal((await s.request(`/api/v1/statuses/${ids[30]}`)).status, 200);
  });
});
