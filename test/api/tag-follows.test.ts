import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("followed hashtags", () => {
  let s: TestServer;
  let n = 0;

  const user = (name: string, scopes?: string) => s.createUser(`${name}${++n}`, scopes ? { scopes } : {});
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const tagAction = (u: TestUser, name: string, action: string) =>
    s.request(`/api/v1/tags/${encodeURIComponent(name)}/${action}`, { method: "POST", token: u.token });
  const followRows = (u: TestUser) =>
    s.ctx.db.selectFrom("tag_follows").selectAll().where("account_id", "=", u.account.id).execute();
  const tagCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom("tags")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Waits until every queued job (fan-out) has run. */
  const drain = () => s.settle();
  const home = async (u: TestUser) => {
    await drain();
    const r = await s.request("/api/v1/timelines/home?limit=40", { token: u.token });
    assert.equal(r.status, 200);
    return (r.body as { id: string }[]).map((x) => x.id);
  };

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("follows a hashtag (creating it), repeatably; unfollows repeatably", async () => {
    const alice = await user("alice");
    const before = await tagCount();
    const first = await tagAction(alice, "GannetFacts", "follow");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.name, "GannetFacts");
    assert.equal(first.body.following, true);
    assert.equal(first.body.featuring, false);
    assert.match(first.body.id, /^\d+$/);
    assert.match(first.body.url, /\/tags\/gannetfacts$/);
    assert.equal(first.body.history.length, 7);
    assert.equal(await tagCount(), before + 1, "the tag was created");

    const again = await tagAction(alice, "gannetfacts", "follow");
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.following, true);
    assert.equal((await followRows(alice)).length, 1, "following twice keeps one row");
    assert.equal(await tagCount(), before + 1);

    const shown = await s.request("/api/v1/tags/GANNETFACTS", { token: alice.token });
    assert.equal(shown.body.following, true);
    const anonymous = await s.request("/api/v1/tags/gannetfacts");
    assert.equal("following" in anonymous.body, false);

    for (let i = 0; i < 2; i++) {
      const r = await tagAction(alice, "GannetFacts", "unfollow");
      assert.equal(r.status, 200);
      assert.equal(r.body.following, false);
      assert.equal(r.body.id, first.body.id);
    }
    assert.equal((await followRows(alice)).length, 0);
    // Unfollowing a tag nobody used creates nothing.
    const unknown = await tagAction(alice, "NeverUsedAnywhere", "unfollow");
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.id, "");
    assert.equal(unknown.body.following, false);
    assert.equal(await tagCount(), before + 1);
  });

  it("lists followed tags newest first, paged by the follow with Link", async () => {
    const alice = await user("alice");
    for (const name of ["one", "two", "three"]) {
      assert.equal((await tagAction(alice, name, "follow")).status, 200);
    }
    const page1 = await s.request("/api/v1/followed_tags?limit=2", { token: alice.token });
    assert.equal(page1.status, 200);
    assert.deepEqual(
      page1.body.map((t: { name: string }) => t.name),
      ["three", "two"],
    );
    assert.ok(page1.body.every((t: { following: boolean }) => t.following === true));
    const link = page1.headers.get("link") ?? "";
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    assert.ok(next, link);
    assert.match(link, /rel="prev"/);
    const page2 = await s.request(new URL(next).pathname + new URL(next).search, { token: alice.token });
    assert.deepEqual(
      page2.body.map((t: { name: string }) => t.name),
      ["one"],
    );
    // Following "two" again does not move it.
    await tagAction(alice, "two", "follow");
    const all = await s.request("/api/v1/followed_tags", { token: alice.token });
    assert.deepEqual(
      all.body.map((t: { name: string }) => t.name),
      ["three", "two", "one"],
    );
  });

  it("refuses impossible names (404) and wrong tokens, changing nothing", async () => {
    const alice = await user("alice");
    const before = await tagCount();
    for (const bad of ["a-b", "123", "%20", "x".repeat(201)]) {
      for (const action of ["follow", "unfollow"]) {
        const r = await s.request(`/api/v1/tags/${bad}/${action}`, { method: "POST", token: alice.token });
        assert.equal(r.status, 404, `${bad} ${action}`);
      }
    }
    assert.equal(await tagCount(), before);
    assert.equal((await followRows(alice)).length, 0);

    const readOnly = await user("reader", "read");
    assert.equal((await tagAction(readOnly, "scoped", "follow")).status, 403);
    const writeOnly = await user("writer", "write");
    assert.equal((await tagAction(writeOnly, "scoped", "follow")).status, 200);
    assert.equal((await s.request("/api/v1/followed_tags", { token: writeOnly.token })).status, 403);
    assert.equal((await s.request("/api/v1/followed_tags", { token: readOnly.token })).status, 200);
    const follows = await user("follows", "read:follows write:follows");
    assert.equal((await tagAction(follows, "scoped", "follow")).status, 200);
    assert.equal((await s.request("/api/v1/tags/scoped/follow", { method: "POST" })).status, 401);
    assert.equal((await s.request("/api/v1/followed_tags")).status, 401);
    const app = await s.appToken("read write");
    assert.equal((await s.request("/api/v1/tags/scoped/follow", { method: "POST", token: app })).status, 422);
    assert.equal((await followRows(readOnly)).length, 0);
  });

  it("brings public posts with a followed hashtag into home; not private, unlisted, blocked or muted ones", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    const dave = await user("dave");
    await tagAction(alice, "Birds", "follow");
    await tagAction(alice, "Birds", "follow");

    const pub = await post(bob, { status: "Look #birds" });
    const priv = await post(bob, { status: "Secret #birds", visibility: "private" });
    const unlisted = await post(bob, { status: "Quiet #Birds", visibility: "unlisted" });
    const other = await post(bob, { status: "No tag here" });
    const boost = await s.request(`/api/v1/statuses/${pub.id}/reblog`, { method: "POST", token: carol.token });
    assert.equal(boost.status, 200);
    let feed = await home(alice);
    assert.ok(feed.includes(pub.id), "the public post with the followed tag reached home");
    assert.ok(!feed.includes(priv.id), "a private post never reaches a non-follower");
    assert.ok(!feed.includes(unlisted.id), "unlisted posts are not fanned out to tag followers");
    assert.ok(!feed.includes(other.id));
    assert.ok(!feed.includes(boost.body.id), "boosts are not fanned out to tag followers");
    const direct = await s.request(`/api/v1/statuses/${priv.id}`, { token: alice.token });
    assert.equal(direct.status, 404);

    // A follower of bob gets the private post through the follow, as before.
    await s.follow(dave, bob);
    const priv2 = await post(bob, { status: "For followers #birds", visibility: "private" });
    assert.ok((await home(dave)).includes(priv2.id));
    assert.ok(!(await home(alice)).includes(priv2.id));

    // Blocked and muted authors (and posts mentioning them) stay out.
    await s.request(`/api/v1/accounts/${carol.account.id}/block`, { method: "POST", token: alice.token });
    await s.request(`/api/v1/accounts/${dave.account.id}/mute`, { method: "POST", token: alice.token });
    const blocked = await post(carol, { status: "Blocked #birds" });
    const muted = await post(dave, { status: "Muted #birds" });
    const mentioning = await post(bob, { status: `#birds with @${dave.account.username}` });
    const fine = await post(bob, { status: "Fine #birds" });
    feed = await home(alice);
    assert.ok(!feed.includes(blocked.id));
    assert.ok(!feed.includes(muted.id));
    assert.ok(!feed.includes(mentioning.id));
    assert.ok(feed.includes(fine.id));

    // An author who blocks the follower does not reach them either.
    const erin = await user("erin");
    await s.request(`/api/v1/accounts/${alice.account.id}/block`, { method: "POST", token: erin.token });
    const blocker = await post(erin, { status: "Hi #birds" });
    assert.ok(!(await home(alice)).includes(blocker.id));

    // After unfollowing the tag, new posts stay out; the fan-out ran once per post.
    await tagAction(alice, "birds", "unfollow");
    const later = await post(bob, { status: "Later #birds" });
    feed = await home(alice);
    assert.ok(!feed.includes(later.id));
    assert.equal(feed.filter((id) => id === pub.id).length, 1);
  });

  it("marks followed tags in search results", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await post(bob, { status: "#Searchable and #searchless" });
    await tagAction(alice, "searchable", "follow");
    const r = await s.request("/api/v2/search?q=%23searchab&type=hashtags", { token: alice.token });
    assert.equal(r.status, 200);
    const tag = r.body.hashtags.find((t: { name: string }) => t.name.toLowerCase() === "searchable");
    assert.ok(tag, JSON.stringify(r.body));
    assert.equal(tag.following, true);
    assert.equal(tag.featuring, false);
    const other = await s.request("/api/v2/search?q=%23searchless&type=hashtags", { token: alice.token });
    assert.equal(other.body.hashtags[0].following, false);
  });

  it("works through masto.js: tags, followed and featured tags, endorsements, notes, suggestions", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const followed = await client.v1.tags.$select("MastoTag").follow();
    assert.equal(followed.following, true);
    const list = await client.v1.followedTags.list();
    assert.deepEqual(
      list.map((t) => t.name),
      ["MastoTag"],
    );
    assert.equal((await client.v1.tags.$select("mastotag").unfollow()).following, false);

    const featured = await client.v1.featuredTags.create({ name: "MastoFeature" });
    assert.equal(featured.name, "MastoFeature");
    assert.equal(featured.statusesCount, "0");
    assert.equal((await client.v1.featuredTags.list()).length, 1);
    await client.v1.featuredTags.$select(featured.id).remove();
    assert.equal((await client.v1.featuredTags.list()).length, 0);

    const pinned = await client.v1.accounts.$select(bob.account.id).pin();
    assert.equal(pinned.endorsed, true);
    assert.deepEqual(
      (await client.v1.endorsements.list()).map((a) => a.id),
      [bob.account.id],
    );
    const noted = await client.v1.accounts.$select(bob.account.id).note.create({ comment: "via masto" });
    assert.equal(noted.note, "via masto");
    const suggestions = await client.v2.suggestions.list();
    assert.ok(Array.isArray(suggestions));
    const directory = await client.v1.directory.list({ local: true, order: "new" });
    assert.ok(Array.isArray(directory));
  });
});
