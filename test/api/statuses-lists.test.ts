import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("statuses: account statuses, favourites, bookmarks, tags, masto", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const post = async (u: TestUser, json: Record<string, unknown>) =>
    (await s.request("/api/v1/statuses", { method: "POST", token: u.token, json })).body;
  const act = (u: TestUser, id: string, action: string) =>
    s.request(`/api/v1/statuses/${id}/${action}`, { method: "POST", token: u.token });
  const ids = (body: { id: string }[]) => body.map((x) => x.id);

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    await s.follow(bob, alice);
  });
  after(() => s.close());

  it("lists an account's statuses with filters, visibility and Link headers", async () => {
    const a1 = await post(alice, { status: "one #Topic" });
    const a2 = await post(alice, { status: "two", visibility: "private" });
    const a3 = await post(alice, { status: "self reply", in_reply_to_id: a1.id });
    const b1 = await post(bob, { status: "bob" });
    const a4 = await post(alice, { status: "reply to bob", in_reply_to_id: b1.id });
    const boost = (await act(alice, b1.id, "reblog")).body;
    const path = `/api/v1/accounts/${alice.account.id}/statuses`;
    const anon = await s.request(path);
    assert.equal(anon.status, 200);
    assert.deepEqual(ids(anon.body), [boost.id, a4.id, a3.id, a1.id]);
    assert.equal(anon.body[0].reblog.id, b1.id);
    const follower = await s.request(path, { token: bob.token });
    assert.deepEqual(ids(follower.body), [boost.id, a4.id, a3.id, a2.id, a1.id]);
    assert.deepEqual(ids((await s.request(path, { token: carol.token })).body), [boost.id, a4.id, a3.id, a1.id]);
    assert.deepEqual(ids((await s.request(`${path}?exclude_replies=true`)).body), [boost.id, a3.id, a1.id]);
    assert.deepEqual(ids((await s.request(`${path}?exclude_reblogs=true&exclude_replies=1`)).body), [a3.id, a1.id]);
    assert.deepEqual(ids((await s.request(`${path}?tagged=topic`)).body), [a1.id]);
    assert.deepEqual((await s.request(`${path}?only_media=true`)).body, []);
    const page = await s.request(`${path}?limit=2`);
    assert.deepEqual(ids(page.body), [boost.id, a4.id]);
    const link = page.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${a4.id}.*rel="next"`));
    assert.match(link, new RegExp(`min_id=${boost.id}.*rel="prev"`));
    assert.deepEqual(ids((await s.request(`${path}?limit=2&max_id=${a4.id}`)).body), [a3.id, a1.id]);
    assert.deepEqual(ids((await s.request(`${path}?min_id=${a3.id}&limit=1`)).body), [a4.id]);
    assert.deepEqual(ids((await s.request(`${path}?since_id=${a3.id}`)).body), [boost.id, a4.id]);
    assert.equal((await s.request("/api/v1/accounts/123456789/statuses")).status, 404);
    assert.equal((await s.request(path, { token: "nope" })).status, 401);
  });

  it("favourites and bookmarks lists, by their own row ids, only visible posts", async () => {
    const pub = await post(alice, { status: "public fav" });
    const priv = await post(alice, { status: "private fav", visibility: "private" });
    await act(bob, priv.id, "favourite");
    await act(bob, pub.id, "favourite");
    await act(bob, pub.id, "bookmark");
    const favs = await s.request("/api/v1/favourites", { token: bob.token });
    assert.equal(favs.status, 200);
    assert.deepEqual(ids(favs.body), [pub.id, priv.id]);
    assert.equal(favs.body[0].favourited, true);
    const one = await s.request("/api/v1/favourites?limit=1", { token: bob.token });
    assert.deepEqual(ids(one.body), [pub.id]);
    const next = /<([^>]+)>; rel="next"/.exec(one.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const u = new URL(next);
    const second = await s.request(u.pathname + u.search, { token: bob.token });
    assert.deepEqual(ids(second.body), [priv.id]);
    // Once bob stops following alice, the private post leaves his list.
    await s.ctx.repos.follows.delete(bob.account.id, alice.account.id);
    try {
      assert.deepEqual(ids((await s.request("/api/v1/favourites", { token: bob.token })).body), [pub.id]);
    } finally {
      await s.follow(bob, alice);
    }
    const bm = await s.request("/api/v1/bookmarks", { token: bob.token });
    assert.deepEqual(ids(bm.body), [pub.id]);
    assert.equal(bm.body[0].bookmarked, true);
    assert.equal((await s.request("/api/v1/favourites")).status, 401);
    const noScope = await s.createUser("noscope", { scopes: "read:statuses" });
    assert.equal((await s.request("/api/v1/favourites", { token: noScope.token })).status, 403);
    assert.equal((await s.request("/api/v1/bookmarks", { token: noScope.token })).status, 403);
    // Deleted posts leave the lists.
    await s.request(`/api/v1/statuses/${pub.id}`, { method: "DELETE", token: alice.token });
    assert.deepEqual(ids((await s.request("/api/v1/bookmarks", { token: bob.token })).body), []);
  });

  it("tags: known with history, unknown and non-ASCII names", async () => {
    await post(carol, { status: "#Café au lait" });
    const r = await s.request(`/api/v1/tags/${encodeURIComponent("café")}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.name, "Café");
    assert.match(r.body.url, /\/tags\/cafe$/, "the URL names the tag by its normalised name, as Mastodon");
    assert.equal(r.body.history.length, 7);
    assert.equal(r.body.history[0].uses, "1");
    assert.equal(r.body.history[0].accounts, "1");
    assert.equal(r.body.following, undefined);
    const authed = await s.request("/api/v1/tags/CAFÉ".replace("É", encodeURIComponent("É")), { token: bob.token });
    assert.equal(authed.body.following, false);
    const unknown = await s.request("/api/v1/tags/neverused");
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.history[0].uses, "0");
  });

  it("works through masto", async () => {
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const created = await client.v1.statuses.create({ status: "from masto", visibility: "unlisted" });
    assert.equal(created.visibility, "unlisted");
    const fetched = await client.v1.statuses.$select(created.id).fetch();
    assert.equal(fetched.content, "<p>from masto</p>");
    const bobClient = createRestAPIClient({ url: s.url, accessToken: bob.token });
    const fav = await bobClient.v1.statuses.$select(created.id).favourite();
    assert.equal(fav.favourited, true);
    assert.equal(fav.favouritesCount, 1);
    const context = await bobClient.v1.statuses.$select(created.id).context.fetch();
    assert.deepEqual(context, { ancestors: [], descendants: [] });
  });
});
