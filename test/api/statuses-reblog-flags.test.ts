import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// Mastodon's serializer reads the viewer's favourite, boost and bookmark of a boost from the
// boosted post (`status.proper`), so a boost answers `reblogged: true` at the top level, where
// clients light the boost button. Mute and pin stay the boost's own (a boost is never pinnable).
describe("statuses: a boost carries the viewer's flags of the boosted post", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const call = async (u: TestUser, method: string, path: string, json?: Record<string, unknown>) => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.equal(r.status, 200, `${method} ${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const post = (u: TestUser, status: string) => call(u, "POST", "/api/v1/statuses", { status });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    await s.follow(bob, alice);
    await s.follow(carol, bob);
  });
  after(() => s.close());

  it("answers the boost with reblogged true at both levels, and favourited and bookmarked from the post", async () => {
    const st = await post(alice, "boost me");
    await call(bob, "POST", `/api/v1/statuses/${st.id}/favourite`);
    await call(bob, "POST", `/api/v1/statuses/${st.id}/bookmark`);
    const boost = await call(bob, "POST", `/api/v1/statuses/${st.id}/reblog`);
    assert.equal(boost.reblog.id, st.id);
    assert.equal(boost.reblogged, true);
    assert.equal(boost.reblog.reblogged, true);
    assert.equal(boost.favourited, true);
    assert.equal(boost.bookmarked, true);
    assert.equal(boost.muted, false);
    assert.equal("pinned" in boost, false, "a boost is not pinnable");
    // Asked again (the boost exists already) and read back by its id: the same.
    const again = await call(bob, "POST", `/api/v1/statuses/${st.id}/reblog`);
    assert.equal(again.id, boost.id);
    assert.equal(again.reblogged, true);
    const read = await call(bob, "GET", `/api/v1/statuses/${boost.id}`);
    assert.equal(read.reblogged, true);
    assert.equal(read.favourited, true);
    assert.equal(read.bookmarked, true);
    // Another viewer sees their own flags at both levels.
    const seen = await call(carol, "GET", `/api/v1/statuses/${boost.id}`);
    assert.equal(seen.reblogged, false);
    assert.equal(seen.favourited, false);
    await call(carol, "POST", `/api/v1/statuses/${st.id}/favourite`);
    assert.equal((await call(carol, "GET", `/api/v1/statuses/${boost.id}`)).favourited, true);
  });

  it("timelines show the booster's boost with reblogged true at the top level", async () => {
    const st = await post(alice, "boost me in timelines");
    const boost = await call(bob, "POST", `/api/v1/statuses/${st.id}/reblog`);
    await s.settle();
    const onProfile = (await call(bob, "GET", `/api/v1/accounts/${bob.account.id}/statuses`)).find(
      (x: { id: string }) => x.id === boost.id,
    );
    assert.ok(onProfile, "the boost is on the booster's profile");
    assert.equal(onProfile.reblogged, true);
    assert.equal(onProfile.reblog.reblogged, true);
    // Carol follows bob: his boost is in her home (kept renders), with her flags.
    const home = async (u: TestUser) =>
      ((await call(u, "GET", "/api/v1/timelines/home?limit=40")) as { id: string; reblogged: boolean }[]).find(
        (x) => x.id === boost.id,
      );
    assert.equal((await home(carol))?.reblogged, false);
    await call(carol, "POST", `/api/v1/statuses/${st.id}/reblog`);
    const after = await home(carol);
    assert.ok(after, "bob's boost is still in carol's home");
    assert.equal(after.reblogged, true);
    // A list of ids (GET /api/v1/statuses?id[]=) as well.
    const listed = await call(bob, "GET", `/api/v1/statuses?id[]=${boost.id}`);
    assert.equal(listed[0].reblogged, true);
  });

  it("masto.js sees the boost as reblogged", async () => {
    const a = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const b = createRestAPIClient({ url: s.url, accessToken: bob.token });
    const st = await a.v1.statuses.create({ status: "boost me through masto" });
    const boost = await b.v1.statuses.$select(st.id).reblog();
    assert.equal(boost.reblog?.id, st.id);
    assert.equal(boost.reblogged, true);
    assert.equal(boost.reblog?.reblogged, true);
    const undone = await b.v1.statuses.$select(st.id).unreblog();
    assert.equal(undone.reblogged, false);
  });
});
