import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("endorsements and private notes", () => {
  let s: TestServer;
  let n = 0;

  const user = (name: string, scopes?: string) => s.createUser(`${name}${++n}`, scopes ? { scopes } : {});
  const act = (u: TestUser, target: TestUser | string, action: string, json?: Record<string, unknown>) =>
    s.request(`/api/v1/accounts/${typeof target === "string" ? target : target.account.id}/${action}`, {
      method: "POST",
      token: u.token,
      json,
    });
  const relationship = async (u: TestUser, target: TestUser) => {
    const r = await s.request(`/api/v1/accounts/relationships?id[]=${target.account.id}`, { token: u.token });
    assert.equal(r.status, 200);
    return r.body[0];
  };
  const pins = (u: TestUser) =>
    s.ctx.db.selectFrom("account_pins").selectAll().where("account_id", "=", u.account.id).execute();
  const notes = (u: TestUser) =>
    s.ctx.db.selectFrom("account_notes").selectAll().where("account_id", "=", u.account.id).execute();
  const ids = (body: { id: string }[]) => body.map((a) => a.id);

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("endorses only followed accounts, repeatably, under both names", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const refused = await act(alice, bob, "endorse");
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.match(refused.body.error, /following/);
    assert.equal((await act(alice, bob, "pin")).status, 422);
    assert.equal((await act(alice, alice, "endorse")).status, 422, "yourself");
    assert.equal((await pins(alice)).length, 0);

    await s.follow(alice, bob);
    for (const verb of ["endorse", "endorse", "pin"]) {
      const r = await act(alice, bob, verb);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.id, bob.account.id);
      assert.equal(r.body.endorsed, true);
      assert.equal(r.body.following, true);
    }
    assert.equal((await pins(alice)).length, 1);
    assert.equal((await relationship(alice, bob)).endorsed, true);
    assert.equal((await relationship(bob, alice)).endorsed, false);

    const own = await s.request("/api/v1/endorsements", { token: alice.token });
    assert.equal(own.status, 200);
    assert.deepEqual(ids(own.body), [bob.account.id]);
    const anonymous = await s.request(`/api/v1/accounts/${alice.account.id}/endorsements`);
    assert.equal(anonymous.status, 200);
    assert.deepEqual(ids(anonymous.body), [bob.account.id]);

    for (const verb of ["unendorse", "unendorse", "unpin"]) {
      const r = await act(alice, bob, verb);
      assert.equal(r.status, 200);
      assert.equal(r.body.endorsed, false);
      assert.equal(r.body.following, true);
    }
    assert.equal((await pins(alice)).length, 0);
    assert.deepEqual((await s.request("/api/v1/endorsements", { token: alice.token })).body, []);
    assert.equal((await act(alice, "999999999", "endorse")).status, 404);
    assert.equal((await act(alice, "999999999", "unendorse")).status, 404);
  });

  it("pages endorsements by the endorsement, with Link; an unfollowed account is no longer shown", async () => {
    const alice = await user("alice");
    const targets = [await user("t"), await user("t"), await user("t")];
    for (const t of targets) {
      await s.follow(alice, t);
      assert.equal((await act(alice, t, "endorse")).status, 200);
    }
    const page1 = await s.request("/api/v1/endorsements?limit=2", { token: alice.token });
    assert.deepEqual(ids(page1.body), [targets[2].account.id, targets[1].account.id]);
    const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const u = new URL(next);
    const page2 = await s.request(u.pathname + u.search, { token: alice.token });
    assert.deepEqual(ids(page2.body), [targets[0].account.id]);
    const pub = await s.request(`/api/v1/accounts/${alice.account.id}/endorsements?limit=1`);
    assert.deepEqual(ids(pub.body), [targets[2].account.id]);
    assert.match(pub.headers.get("link") ?? "", /rel="next"/);

    // A block ends the follow, and with it the endorsement.
    await s.request(`/api/v1/accounts/${targets[1].account.id}/block`, { method: "POST", token: alice.token });
    const after = await s.request("/api/v1/endorsements", { token: alice.token });
    assert.deepEqual(ids(after.body), [targets[2].account.id, targets[0].account.id]);
    assert.equal((await relationship(alice, targets[1])).endorsed, false);
  });

  it("keeps a private note, shown as the relationship's note; empty deletes it", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const set = await act(alice, bob, "note", { comment: "Met at the <b>conference</b>" });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.note, "Met at the <b>conference</b>");
    assert.equal((await relationship(alice, bob)).note, "Met at the <b>conference</b>");
    assert.equal((await relationship(bob, alice)).note, "", "notes are private to their author");

    const again = await act(alice, bob, "note", { comment: "Updated" });
    assert.equal(again.body.note, "Updated");
    const rows = await notes(alice);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].comment, "Updated");

    const max = "é".repeat(2000);
    assert.equal((await act(alice, bob, "note", { comment: max })).body.note, max);
    const tooLong = await act(alice, bob, "note", { comment: `${max}x` });
    assert.equal(tooLong.status, 422);
    assert.equal((await notes(alice))[0].comment, max, "a refused note changes nothing");
    const notText = await act(alice, bob, "note", { comment: { a: 1 } });
    assert.equal(notText.status, 422);
    assert.equal((await notes(alice))[0].comment, max);

    const cleared = await act(alice, bob, "note", { comment: "" });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.note, "");
    assert.equal((await notes(alice)).length, 0);
    await act(alice, bob, "note", { comment: "back" });
    const missing = await act(alice, bob, "note", {});
    assert.equal(missing.body.note, "");
    assert.equal((await notes(alice)).length, 0);
    assert.equal((await act(alice, "999999999", "note", { comment: "x" })).status, 404);
  });

  it("checks scopes and tokens", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    const reader = await user("reader", "read");
    await s.follow(reader, bob);
    assert.equal((await act(reader, bob, "endorse")).status, 403);
    assert.equal((await act(reader, bob, "note", { comment: "x" })).status, 403);
    assert.equal((await pins(reader)).length, 0);
    assert.equal((await notes(reader)).length, 0);
    const writer = await user("writer", "write:accounts");
    assert.equal((await s.request("/api/v1/endorsements", { token: writer.token })).status, 403);
    assert.equal((await s.request("/api/v1/endorsements")).status, 401);
    assert.equal((await s.request(`/api/v1/accounts/${bob.account.id}/pin`, { method: "POST" })).status, 401);
    const app = await s.appToken("read write");
    assert.equal(
      (
        await s.request(`/api/v1/accounts/${bob.account.id}/note`, {
          method: "POST",
          token: app,
          json: { comment: "x" },
        })
      ).status,
      422,
    );
    const push = await user("push", "push");
    assert.equal(
      (await s.request(`/api/v1/accounts/${alice.account.id}/endorsements`, { token: push.token })).status,
      403,
    );
  });
});
