import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const DAY = 24 * 60 * 60 * 1000;

describe("instance usage numbers move with the server", () => {
  let s: TestServer;
  let recent: TestUser;
  let monthsAgo: TestUser;
  const usage = async () => {
    const [v1, v2, ni] = await Promise.all([
      s.request("/api/v1/instance"),
      s.request("/api/v2/instance"),
      s.request("/nodeinfo/2.0"),
    ]);
    return {
      v1: v1.body.stats,
      activeMonth: v2.body.usage.users.active_month,
      users: ni.body.usage.users,
      ni: ni.body,
    };
  };
  const signIn = (userId: string, at: number) =>
    s.ctx.repos.users.update(userId, { current_sign_in_at: new Date(at).toISOString() });

  before(async () => {
    // 0: recompute on every request, so each step below is visible at once.
    s = await startTestServer({ INSTANCE_STATS_CACHE_SECONDS: "0" });
  });
  after(() => s.close());

  it("starts empty", async () => {
    const u = await usage();
    assert.deepEqual(u.v1, { user_count: 0, status_count: 0, domain_count: 0 });
    assert.deepEqual(u.users, { total: 0, activeMonth: 0, activeHalfyear: 0 });
    assert.equal(u.ni.usage.localPosts, 0);
    assert.equal(u.activeMonth, 0);
  });

  it("counts confirmed, approved users; not unconfirmed, unapproved or suspended ones", async () => {
    await s.createUser("one");
    await s.createUser("two");
    await s.createUser("pending", { approved: false });
    await s.createUser("unconfirmed", { confirmed: false });
    const gone = await s.createUser("gone");
    await s.ctx.repos.accounts.update(gone.account.id, { suspended_at: new Date().toISOString() });
    const u = await usage();
    assert.equal(u.v1.user_count, 2);
    assert.equal(u.users.total, 2);
  });

  it("counts users active within 30 and 180 days from their sign-in times", async () => {
    const now = Date.now();
    recent = await s.createUser("recent");
    monthsAgo = await s.createUser("months_ago");
    const longAgo = await s.createUser("long_ago");
    await signIn(recent.user.id, now - 2 * DAY);
    await signIn(monthsAgo.user.id, now - 90 * DAY);
    await signIn(longAgo.user.id, now - 400 * DAY);
    const u = await usage();
    assert.equal(u.users.total, 5);
    assert.equal(u.users.activeMonth, 1);
    assert.equal(u.users.activeHalfyear, 2);
    assert.equal(u.activeMonth, 1);
  });

  it("counts a sign-in made by using a token", async () => {
    const d = await s.createUser("token_user");
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: d.token });
    assert.equal(me.status, 200);
    const u = await usage();
    assert.equal(u.users.activeMonth, 2);
    assert.equal(u.users.activeHalfyear, 3);
  });

  it("counts local posts from the accounts' status counts", async () => {
    const e = await s.createUser("poster");
    await s.ctx.repos.accounts.update(e.account.id, { statuses_count: 7 });
    const u = await usage();
    assert.equal(u.ni.usage.localPosts, 7);
    assert.equal(u.v1.status_count, 7);
  });

  it("lists peers and counts their domains", async () => {
    const now = new Date().toISOString();
    for (const [id, username, domain] of [
      ["900001", "x", "remote.example"],
      ["900002", "y", "remote.example"],
      ["900003", "z", "other.example"],
    ]) {
      await s.ctx.repos.accounts.insert({
        id,
        username,
        domain,
        uri: `https://${domain}/users/${username}`,
        created_at: now,
        updated_at: now,
      });
    }
    const peers = await s.request("/api/v1/instance/peers");
    assert.equal(peers.status, 200);
    assert.deepEqual(peers.body, ["other.example", "remote.example"]);
    assert.equal((await usage()).v1.domain_count, 2);
  });

  it("reports 12 weeks of activity, newest first, as strings", async () => {
    const r = await s.request("/api/v1/instance/activity");
    assert.equal(r.status, 200);
    const weeks = r.body as { week: string; statuses: string; logins: string; registrations: string }[];
    assert.equal(weeks.length, 12);
    for (const w of weeks) {
      for (const k of ["week", "statuses", "logins", "registrations"] as const) {
        assert.equal(typeof w[k], "string");
        assert.match(w[k], /^\d+$/);
      }
    }
    const starts = weeks.map((w) => Number(w.week) * 1000);
    for (let i = 1; i < 12; i++) assert.equal(starts[i - 1] - starts[i], 7 * DAY);
    // Weeks start on Monday 00:00 UTC, and the first one holds now.
    assert.equal(new Date(starts[0]).getUTCDay(), 1);
    assert.equal(new Date(starts[0]).getUTCHours(), 0);
    assert.ok(starts[0] <= Date.now() && Date.now() < starts[0] + 7 * DAY);
    // Every user above was created this week (ten of them).
    assert.equal(weeks[0].registrations, "10");
    assert.ok(weeks.slice(1).every((w) => w.registrations === "0"));
    // Move the sign-ins: "recent" now (with the token user: two this week), "months_ago" exactly three
    // weeks ago (week 3), "long_ago" beyond the twelve weeks.
    await signIn(recent.user.id, Date.now());
    await signIn(monthsAgo.user.id, Date.now() - 21 * DAY);
    const again = (await s.request("/api/v1/instance/activity")).body as typeof weeks;
    assert.deepEqual(
      again.map((w) => w.logins),
      ["2", "0", "0", "1", "0", "0", "0", "0", "0", "0", "0", "0"],
    );
    assert.ok(again.every((w) => w.statuses === "0"));
  });
});
