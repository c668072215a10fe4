import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("featured hashtags", () => {
  let s: TestServer;
  let n = 0;

  const user = (name: string, scopes?: string) => s.createUser(`${name}${++n}`, scopes ? { scopes } : {});
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const feature = (u: TestUser, name: unknown) =>
    s.request("/api/v1/featured_tags", { method: "POST", token: u.token, json: name === undefined ? {} : { name } });
  const tagAction = (u: TestUser, name: string, action: string) =>
    s.request(`/api/v1/tags/${encodeURIComponent(name)}/${action}`, { method: "POST", token: u.token });
  const featuredRows = (u: TestUser) =>
    s.ctx.db.selectFrom("featured_tags").selectAll().where("account_id", "=", u.account.id).execute();
  const names = (body: { name: string }[]) => body.map((t) => t.name);
  const today = () => new Date().toISOString().slice(0, 10);

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("features a tag by name, repeatably, and lists it with usage counts (own and public)", async () => {
    const alice = await user("alice");
    const first = await feature(alice, "Cats");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, {
      id: first.body.id,
      name: "Cats",
      url: `${s.ctx.config.baseUrl}/@${alice.account.username}/tagged/cats`,
      statuses_count: "0",
      last_status_at: null,
    });
    const again = await feature(alice, "#cats");
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    assert.equal((await featuredRows(alice)).length, 1);

    await post(alice, { status: "One #cats" });
    await post(alice, { status: "Two #Cats", visibility: "unlisted" });
    await post(alice, { status: "Private #cats", visibility: "private" });
    const gone = await post(alice, { status: "Deleted #cats" });
    assert.equal(
      (await s.request(`/api/v1/statuses/${gone.id}`, { method: "DELETE", token: alice.token })).status,
      200,
    );
    const bob = await user("bob");
    await post(bob, { status: "Not alice's #cats" });

    const own = await s.request("/api/v1/featured_tags", { token: alice.token });
    assert.equal(own.status, 200);
    assert.equal(own.body.length, 1);
    assert.equal(own.body[0].id, first.body.id);
    assert.equal(own.body[0].statuses_count, "2", "public and unlisted live posts count");
    assert.equal(own.body[0].last_status_at, today());

    const anonymous = await s.request(`/api/v1/accounts/${alice.account.id}/featured_tags`);
    assert.equal(anonymous.status, 200);
    assert.deepEqual(anonymous.body, own.body);
    assert.deepEqual((await s.request(`/api/v1/accounts/${bob.account.id}/featured_tags`)).body, []);
    assert.equal((await s.request("/api/v1/accounts/999999999/featured_tags")).status, 404);
  });

  it("keeps the stored counts in step with new posts (fan-out job)", async () => {
    const alice = await user("alice");
    await feature(alice, "stored");
    await post(alice, { status: "Stored #stored" });
    for (let i = 0; i < 200; i++) {
      const [row] = await featuredRows(alice);
      if (Number(row.statuses_count) === 1) {
        assert.ok(row.last_status_at);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail("featured_tags.statuses_count was not refreshed");
  });

  it("allows at most max_featured_tags (10), shown in instance information", async () => {
    const v2 = await s.request("/api/v2/instance");
    assert.equal(v2.body.configuration.accounts.max_featured_tags, 10);
    const v1 = await s.request("/api/v1/instance");
    assert.equal(v1.body.configuration.accounts.max_featured_tags, 10);

    const alice = await user("alice");
    for (let i = 0; i < 10; i++) assert.equal((await feature(alice, `tag${i}x`)).status, 200);
    const over = await feature(alice, "eleventh");
    assert.equal(over.status, 422, JSON.stringify(over.body));
    assert.match(over.body.error, /maximum/);
    const overByTag = await tagAction(alice, "eleventh", "feature");
    assert.equal(overByTag.status, 422);
    assert.equal((await featuredRows(alice)).length, 10);
    // Featuring one already featured is still fine at the limit.
    assert.equal((await feature(alice, "tag3x")).status, 200);
    assert.equal((await tagAction(alice, "tag3x", "feature")).status, 200);
    assert.equal((await featuredRows(alice)).length, 10);
  });

  it("unfeatures by id (404 for another's or a missing one)", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const a = await feature(alice, "mine");
    const b = await feature(bob, "theirs");
    assert.equal(
      (await s.request(`/api/v1/featured_tags/${b.body.id}`, { method: "DELETE", token: alice.token })).status,
      404,
    );
    assert.equal((await featuredRows(bob)).length, 1, "bob's featured tag stays");
    const del = await s.request(`/api/v1/featured_tags/${a.body.id}`, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal((await featuredRows(alice)).length, 0);
    const twice = await s.request(`/api/v1/featured_tags/${a.body.id}`, { method: "DELETE", token: alice.token });
    assert.equal(twice.status, 404);
    assert.equal((await s.request("/api/v1/featured_tags/abc", { method: "DELETE", token: alice.token })).status, 404);
  });

  it("features and unfeatures through /api/v1/tags/:name, repeatably, with `featuring`", async () => {
    const alice = await user("alice");
    for (let i = 0; i < 2; i++) {
      const r = await tagAction(alice, "Dogs", "feature");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.featuring, true);
      assert.equal(r.body.following, false);
    }
    assert.equal((await featuredRows(alice)).length, 1);
    assert.deepEqual(names((await s.request("/api/v1/featured_tags", { token: alice.token })).body), ["Dogs"]);
    assert.equal((await s.request("/api/v1/tags/dogs", { token: alice.token })).body.featuring, true);
    for (let i = 0; i < 2; i++) {
      const r = await tagAction(alice, "dogs", "unfeature");
      assert.equal(r.status, 200);
      assert.equal(r.body.featuring, false);
    }
    assert.equal((await featuredRows(alice)).length, 0);
    assert.equal((await tagAction(alice, "a-b", "feature")).status, 404);
    assert.equal((await tagAction(alice, "a-b", "unfeature")).status, 404);
    const unknown = await tagAction(alice, "nobodyusesthis", "unfeature");
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.featuring, false);
  });

  it("suggests the caller's most used tags that are not featured yet", async () => {
    const alice = await user("alice");
    await post(alice, { status: "#often #sometimes #featuredone" });
    await post(alice, { status: "#often #featuredone" });
    await post(alice, { status: "#often" });
    await feature(alice, "featuredone");
    const bob = await user("bob");
    await post(bob, { status: "#bobstag #bobstag2" });
    const r = await s.request("/api/v1/featured_tags/suggestions", { token: alice.token });
    assert.equal(r.status, 200);
    assert.deepEqual(names(r.body), ["often", "sometimes"]);
    assert.equal(r.body[0].featuring, false);
    assert.equal(r.body[0].history.length, 7);
  });

  it("refuses bad input and wrong scopes, storing nothing", async () => {
    const alice = await user("alice");
    const missing = await feature(alice, undefined);
    assert.equal(missing.status, 400);
    const empty = await feature(alice, "");
    assert.equal(empty.status, 400);
    for (const bad of ["a-b", "#", "123", ["x"], { a: 1 }, "x".repeat(201)]) {
      const r = await feature(alice, bad);
      assert.equal(r.status, 422, JSON.stringify(bad));
    }
    assert.equal((await featuredRows(alice)).length, 0);

    const reader = await user("reader", "read");
    assert.equal((await feature(reader, "scoped")).status, 403);
    assert.equal((await tagAction(reader, "scoped", "feature")).status, 403);
    assert.equal((await featuredRows(reader)).length, 0);
    const writer = await user("writer", "write:accounts");
    assert.equal((await s.request("/api/v1/featured_tags", { token: writer.token })).status, 403);
    assert.equal((await s.request("/api/v1/featured_tags/suggestions", { token: writer.token })).status, 403);
    assert.equal((await feature(writer, "scoped")).status, 200);
    assert.equal((await s.request("/api/v1/featured_tags")).status, 401);
    const app = await s.appToken("read write");
    assert.equal((await s.request("/api/v1/featured_tags", { token: app })).status, 422);
    // A public list with a token lacking read scopes is refused.
    const push = await user("push", "push");
    assert.equal(
      (await s.request(`/api/v1/accounts/${alice.account.id}/featured_tags`, { token: push.token })).status,
      403,
    );
  });
});
