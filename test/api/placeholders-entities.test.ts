import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write follow push profile admin:read admin:write";

const RELATIONSHIP_KEYS = [
  "id",
  "following",
  "showing_reblogs",
  "notifying",
  "languages",
  "followed_by",
  "blocking",
  "blocked_by",
  "muting",
  "muting_notifications",
  "muting_expires_at",
  "requested",
  "requested_by",
  "domain_blocking",
  "endorsed",
  "note",
];

describe("placeholders: entities with honest empty values", () => {
  let s: TestServer;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let suspendedId: string;

  before(async () => {
    s = await startTestServer();
    const a = await s.createUser("alice");
    alice = { id: a.account.id, token: a.token };
    const b = await s.createUser("bob");
    bob = { id: b.account.id, token: b.token };
    const c = await s.createUser("carol");
    suspendedId = c.account.id;
    await s.ctx.repos.accounts.update(suspendedId, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "local",
    });
  });
  after(() => s.close());

  it("gives one all-false Relationship per existing account asked for, in the order asked", async () => {
    const q = `id[]=${bob.id}&id[]=999999999&id[]=${alice.id}&id[]=${bob.id}&id[]=${suspendedId}`;
    const r = await s.request(`/api/v1/accounts/relationships?${q}`, { token: alice.token });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.map((x: { id: string }) => x.id),
      [bob.id, alice.id],
    );
    assert.deepEqual(Object.keys(r.body[0]).sort(), [...RELATIONSHIP_KEYS].sort());
    for (const rel of r.body) {
      for (const k of RELATIONSHIP_KEYS) {
        if (k === "id") continue;
        const want = k === "note" ? "" : k === "languages" || k === "muting_expires_at" ? null : false;
        assert.equal(rel[k], want, k);
      }
    }
    const withSuspended = await s.request(`/api/v1/accounts/relationships?${q}&with_suspended=true`, {
      token: alice.token,
    });
    assert.deepEqual(
      withSuspended.body.map((x: { id: string }) => x.id),
      [bob.id, alice.id, suspendedId],
    );
    const single = await s.request(`/api/v1/accounts/relationships?id=${bob.id}`, { token: alice.token });
    assert.equal(single.body.length, 1);
    const none = await s.request("/api/v1/accounts/relationships", { token: alice.token });
    assert.deepEqual(none.body, []);
  });

  it("gives familiar followers as an empty list per unsuspended account", async () => {
    const r = await s.request(`/api/v1/accounts/familiar_followers?id[]=${bob.id}&id[]=${suspendedId}&id[]=5`, {
      token: alice.token,
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, [{ id: bob.id, accounts: [] }]);
  });

  it("answers undo actions with the Relationship of the target", async () => {
    for (const action of ["unfollow", "unblock", "unmute", "unendorse", "unpin", "remove_from_followers"]) {
      const r = await s.request(`/api/v1/accounts/${bob.id}/${action}`, { method: "POST", token: alice.token });
      assert.equal(r.status, 200, action);
      assert.equal(r.body.id, bob.id);
      assert.equal(r.body.following, false);
    }
    const missing = await s.request("/api/v1/accounts/999999999/follow", { method: "POST", token: alice.token });
    assert.equal(missing.status, 404);
  });

  it("renders a Tag no post used yet, with following/featuring for a signed-in viewer only", async () => {
    const anon = await s.request("/api/v1/tags/Caturday");
    assert.equal(anon.status, 200);
    assert.equal(anon.body.name, "Caturday");
    assert.equal(anon.body.id, "");
    assert.match(anon.body.url, /\/tags\/caturday$/);
    assert.equal(anon.body.history.length, 7);
    for (const h of anon.body.history) {
      assert.match(h.day, /^\d+$/);
      assert.equal(h.uses, "0");
      assert.equal(h.accounts, "0");
    }
    assert.ok(Number(anon.body.history[0].day) > Number(anon.body.history[1].day), "newest day first");
    assert.equal("following" in anon.body, false);
    const signed = await s.request("/api/v1/tags/caturday", { token: alice.token });
    assert.equal(signed.body.following, false);
    assert.equal(signed.body.featuring, false);
    for (const bad of ["123", "a-b", "%20"]) {
      assert.equal((await s.request(`/api/v1/tags/${bad}`)).status, 404, bad);
    }
    // Following and featuring tags: test/api/tag-follows.test.ts, test/api/featured-tags.test.ts.
    const unfollow = await s.request("/api/v1/tags/caturday/unfollow", { method: "POST", token: alice.token });
    assert.equal(unfollow.status, 200);
    assert.equal(unfollow.body.following, false);
  });

  it("links empty pages: id cursors on timelines, offsets on trends, carrying other parameters", async () => {
    const home = await s.request("/api/v1/timelines/home?limit=5&max_id=100", { token: alice.token });
    assert.deepEqual(home.body, []);
    const link = home.headers.get("link") ?? "";
    assert.match(link, /rel="prev"/);
    assert.match(link, /limit=5/);
    const trends = await s.request("/api/v1/trends/statuses?offset=40&limit=10");
    assert.equal(trends.status, 200);
    assert.match(trends.headers.get("link") ?? "", /offset=30.*rel="prev"/);
    assert.doesNotMatch(trends.headers.get("link") ?? "", /rel="next"/);
    const v2 = await s.request("/api/v2/notifications?limit=3", { token: alice.token });
    assert.deepEqual(v2.body, { accounts: [], statuses: [], notification_groups: [] });
    assert.ok(v2.headers.get("link"));
    assert.equal((await s.request("/api/v1/trends?offset=x")).status, 400);
  });

  it("counts nothing unread and has no markers", async () => {
    for (const v of ["v1", "v2"]) {
      const r = await s.request(`/api/${v}/notifications/unread_count?limit=500`, { token: alice.token });
      assert.deepEqual(r.body, { count: 0 });
      assert.equal(
        (await s.request(`/api/${v}/notifications/unread_count?limit=-1`, { token: alice.token })).status,
        400,
      );
    }
    // The notification policy is built now (test/api/notification-requests.test.ts checks its default).
    const markers = await s.request("/api/v1/markers?timeline[]=home&timeline[]=notifications", { token: alice.token });
    assert.deepEqual(markers.body, {});
  });

  it("gives the own Profile from the stored profile", async () => {
    await s.ctx.repos.accounts.update(alice.id, { display_name: "Alice", note_source: "hi *there*", locked: true });
    const r = await s.request("/api/v1/profile", { token: alice.token });
    assert.equal(r.status, 200);
    assert.equal(r.body.id, alice.id);
    assert.equal(r.body.display_name, "Alice");
    assert.equal(r.body.note, "hi *there*");
    assert.equal(r.body.locked, true);
    assert.equal(r.body.avatar, null);
    assert.deepEqual(r.body.attribution_domains, []);
    const profileOnly = await s.createUser("dave", { scopes: "profile" });
    assert.equal((await s.request("/api/v1/profile", { token: profileOnly.token })).status, 200);
    const patch = await s.request("/api/v1/profile", { method: "PATCH", token: alice.token, json: {} });
    assert.equal(patch.status, 422);
  });

  it("answers the streaming health check in plain text, ignoring tokens on public endpoints", async () => {
    const r = await s.request("/api/v1/streaming/health");
    assert.equal(r.status, 200);
    assert.equal(r.body, "OK");
    assert.match(r.headers.get("content-type") ?? "", /^text\/plain/);
    assert.equal((await s.request("/api/v1/custom_emojis", { token: "revoked-or-bogus" })).status, 200);
    assert.equal((await s.request("/api/v1/timelines/public", { token: "revoked-or-bogus" })).status, 401);
  });

  it("answers 422 to Mastodon's bare user checks without a token, and 204 for donation campaigns", async () => {
    assert.equal((await s.request("/api/v1/announcements")).status, 422);
    assert.deepEqual((await s.request("/api/v1/announcements", { token: bob.token })).body, []);
    const d = await s.request("/api/v1/donation_campaigns", { token: bob.token });
    assert.equal(d.status, 204);
  });

  it("refuses users whose login is not usable", async () => {
    const pending = await s.createUser("pat", { approved: false });
    const r = await s.request("/api/v1/timelines/home", { token: pending.token });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: "Your login is currently pending approval" });
    const a = await s.request("/api/v1/announcements", { token: pending.token });
    assert.equal(a.status, 403);
  });

  it("grants admin endpoints by role permission", async () => {
    const mod = await s.createUser("moderat", { role: "Moderator", scopes: ADMIN_SCOPES });
    const owner = await s.createUser("ownr", { role: "Owner", scopes: ADMIN_SCOPES });
    const cases: [string, string, number, number][] = [
      // method, path, Moderator, Owner
      ["GET", "/api/v1/admin/accounts", 200, 200],
      ["GET", "/api/v1/admin/reports", 200, 200],
      ["POST", "/api/v1/admin/measures", 200, 200],
      ["GET", "/api/v1/admin/domain_blocks", 403, 200],
      ["GET", "/api/v1/admin/ip_blocks", 403, 200],
      ["GET", "/api/v1/admin/trends/tags", 403, 200],
      // Built (account-action-routes.ts): Moderators lack Delete User Data; bob is not suspended.
      ["DELETE", `/api/v1/admin/accounts/${bob.id}`, 403, 403],
      ["POST", `/api/v1/admin/accounts/${bob.id}/action`, 422, 422],
    ];
    for (const [method, path, modStatus, ownerStatus] of cases) {
      const m = await s.request(path, { method, token: mod.token, json: method === "GET" ? undefined : {} });
      assert.equal(m.status, modStatus, `Moderator ${method} ${path}`);
      if (modStatus === 403) assert.deepEqual(m.body, { error: "This action is not allowed" });
      const o = await s.request(path, { method, token: owner.token, json: method === "GET" ? undefined : {} });
      assert.equal(o.status, ownerStatus, `Owner ${method} ${path}`);
    }
    const scopeFirst = await s.createUser("moderat2", { role: "Moderator", scopes: "read" });
    const r = await s.request("/api/v1/admin/accounts", { token: scopeFirst.token });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: "This action is outside the authorized scopes" });
    const granular = await s.createUser("moderat3", { role: "Moderator", scopes: "admin:read:accounts" });
    assert.equal((await s.request("/api/v2/admin/accounts", { token: granular.token })).status, 200);
    assert.equal((await s.request("/api/v1/admin/reports", { token: granular.token })).status, 403);
  });
});
