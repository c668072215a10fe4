import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * On PostgreSQL, what a request costs in round trips to the database once nothing changed: the
 * token, the verify_credentials answer, the home feed's page of ids and the rendered posts are
 * kept under change stamps that other processes' change notices move (db/change-notices.ts), so a
 * page asked again costs no query for them (docs/scaling.md, "Caches on PostgreSQL"). Counted by
 * the database's statement counter (`Database.roundTrips`); the server's job workers and
 * scheduler query meanwhile, so the least count over several requests is the request's own.
 */
describe("PostgreSQL: round trips of a request when nothing changed", { skip: !process.env.DATABASE_URL }, () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    await s.follow(bob, alice);
    for (let i = 0; i < 5; i++) {
      const r = await s.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        json: { status: `post ${i}` },
      });
      assert.equal(r.status, 200);
    }
    await s.settle();
    // The change notices' subscription is ready (until then nothing is kept).
    for (let i = 0; i < 200 && s.ctx.database.changeStamp() === undefined; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.notEqual(s.ctx.database.changeStamp(), undefined, "the stamps are defined on PostgreSQL");
  });
  after(() => s.close());

  /**
   * The least round trips of `path` over up to 40 requests, after two to fill what is kept: the
   * scheduler's tasks also write now and then (moving a stamp), and the workers poll.
   */
  const roundTrips = async (path: string, token: string) => {
    let least = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 42 && least > 0; i++) {
      const before = s.ctx.database.roundTrips();
      const r = await s.request(path, { token });
      assert.equal(r.status, 200);
      if (i >= 2) least = Math.min(least, s.ctx.database.roundTrips() - before);
    }
    return least;
  };

  it("the home timeline asked again costs at most 2 round trips (here none)", async () => {
    const page = await s.request("/api/v1/timelines/home?limit=40", { token: bob.token });
    assert.equal(page.body.length, 5);
    const n = await roundTrips("/api/v1/timelines/home?limit=40", bob.token);
    assert.ok(n <= 2, `${n} round trips`);
    assert.equal(n, 0);
  });

  it("verify_credentials asked again costs no round trip", async () => {
    assert.equal(await roundTrips("/api/v1/accounts/verify_credentials", bob.token), 0);
  });

  it("after a change, the next home page reads again, then costs nothing again", async () => {
    await s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "one more" } });
    await s.settle();
    const page = await s.request("/api/v1/timelines/home?limit=40", { token: bob.token });
    assert.equal(page.body.length, 6);
    assert.equal(page.body[0].content, "<p>one more</p>");
    assert.equal(await roundTrips("/api/v1/timelines/home?limit=40", bob.token), 0);
  });
});
