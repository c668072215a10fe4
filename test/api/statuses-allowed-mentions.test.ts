import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// `allowed_mentions` (Mastodon's PostStatusService#safeguard_mentions!): a post that would
// mention anyone outside the list is refused with 422, the unexpected accounts listed, and
// nothing is stored or sent.
describe("statuses: allowed_mentions", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const post = (body: { json?: unknown; form?: Record<string, string | string[]>; multipart?: FormData }) =>
    s.request("/api/v1/statuses", { method: "POST", token: alice.token, ...body });
  const statusCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom("statuses")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const mentionsOf = async (u: TestUser) => {
    // Scheduled posts' own publication jobs wait an hour ahead: not waited for.
    await s.settle({ delayed: false });
    const r = await s.request("/api/v1/notifications?types[]=mention", { token: u.token });
    assert.equal(r.status, 200);
    return (r.body as { status: { content: string } }[]).map((n) => n.status.content);
  };
  const refused = (r: { status: number; body: any }, ids: string[]) => {
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.error, "Post would be sent to unexpected accounts");
    assert.deepEqual(
      r.body.unexpected_accounts.map((a: { id: string }) => a.id),
      ids,
    );
  };

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
  });
  after(() => s.close());

  it("refuses a post mentioning anyone not allowed, storing and notifying nothing", async () => {
    const before = await statusCount();
    const r = await post({ json: { status: "@bob secret plans", allowed_mentions: [] } });
    refused(r, [bob.account.id]);
    // The accounts come as Account entities.
    assert.equal(r.body.unexpected_accounts[0].acct, "bob");
    assert.equal(r.body.unexpected_accounts[0].username, "bob");
    assert.ok("followers_count" in r.body.unexpected_accounts[0]);
    const both = await post({ json: { status: "@bob @carol hello", allowed_mentions: [bob.account.id] } });
    refused(both, [carol.account.id]);
    // Mastodon counts a mention of oneself too.
    refused(await post({ json: { status: "note to @alice", allowed_mentions: [] } }), [alice.account.id]);
    assert.equal(await statusCount(), before, "nothing stored");
    assert.deepEqual(await mentionsOf(bob), []);
    assert.deepEqual(await mentionsOf(carol), []);
    const own = await s.request(`/api/v1/accounts/${alice.account.id}/statuses`, { token: alice.token });
    assert.deepEqual(own.body, []);
    assert.equal(
      (await s.request("/api/v1/accounts/verify_credentials", { token: alice.token })).body.statuses_count,
      0,
    );
  });

  it("posts when every mention is allowed, or when the list is absent or null", async () => {
    const ok = await post({ json: { status: "@bob hello, allowed", allowed_mentions: [bob.account.id] } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(
      ok.body.mentions.map((m: { id: string }) => m.id),
      [bob.account.id],
    );
    assert.equal((await post({ json: { status: "no one here", allowed_mentions: [] } })).status, 200);
    assert.equal((await post({ json: { status: "@bob unchecked" } })).status, 200);
    assert.equal((await post({ json: { status: "@bob null", allowed_mentions: null } })).status, 200);
    const notified = await mentionsOf(bob);
    assert.ok(notified.some((c) => c.includes("hello, allowed")));
  });

  it("reads form and multipart bodies the same way", async () => {
    const before = await statusCount();
    refused(await post({ form: { status: "@bob via form", "allowed_mentions[]": "" } }), [bob.account.id]);
    refused(await post({ form: { status: "@bob via form", "allowed_mentions[]": [carol.account.id] } }), [
      bob.account.id,
    ]);
    // A lone value is a list of one (never a reason to skip the check).
    refused(await post({ form: { status: "@bob lone", allowed_mentions: carol.account.id } }), [bob.account.id]);
    const m = new FormData();
    m.append("status", "@carol via multipart");
    m.append("allowed_mentions[]", bob.account.id);
    refused(await post({ multipart: m }), [carol.account.id]);
    // An entry that is not an id matches no one.
    refused(await post({ json: { status: "@bob odd", allowed_mentions: [{ id: bob.account.id }] } }), [bob.account.id]);
    assert.equal(await statusCount(), before);
    const ok = await post({
      form: { status: "@bob @carol via form", "allowed_mentions[]": [bob.account.id, carol.account.id] },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(await statusCount(), before + 1);
  });

  it("a refused post does not take its Idempotency-Key", async () => {
    const headers = { "idempotency-key": "allowed-mentions-1" };
    const first = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      headers,
      json: { status: "@carol again", allowed_mentions: [] },
    });
    assert.equal(first.status, 422);
    const retry = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      headers,
      json: { status: "@carol again", allowed_mentions: [carol.account.id] },
    });
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
  });

  it("a scheduled post keeps the list and is dropped at its time if it would mention others", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const r = await post({ json: { status: "@bob later", scheduled_at: at, allowed_mentions: [] } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.params.allowed_mentions, []);
    const fine = await post({
      json: { status: "@bob later too", scheduled_at: at, allowed_mentions: [bob.account.id] },
    });
    assert.equal(fine.status, 200);
    const before = await statusCount();
    for (const id of [r.body.id, fine.body.id]) {
      await s.ctx.db
        .updateTable("scheduled_statuses")
        .set({ scheduled_at: new Date(Date.now() - 1000).toISOString() })
        .where("id", "=", id)
        .execute();
      await s.ctx.queue.enqueue("scheduled-statuses.publish", { id });
    }
    await s.settle({ delayed: false });
    assert.equal(await statusCount(), before + 1, "only the allowed one is published");
    const contents = await mentionsOf(bob);
    assert.ok(contents.some((c) => c.includes("later too")));
    assert.ok(!contents.some((c) => c.includes("later<")));
    const left = await s.request("/api/v1/scheduled_statuses", { token: alice.token });
    assert.deepEqual(left.body, []);
  });
});
