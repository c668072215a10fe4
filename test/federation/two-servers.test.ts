import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { accountsAliases, accountsMove } from "../../src/cli/commands/migration.ts";
import { parseCommand } from "../../src/cli/parse-command.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ALLOW = { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" };

/**
 * Two Gannet servers on loopback (`localhost:PORT_A`, `localhost:PORT_B`) talking ActivityPub:
 * what a user does on one is seen on the other.
 */
describe("two Gannet servers federating", () => {
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser; // on A, open
  let lucy: TestUser; // on A, locked
  let bob: TestUser; // on B
  /** Account ids of remote accounts as each server knows them. */
  let aliceOnB: string;
  let bobOnA: string;

  /** Both servers quiet: activities bounce between them (Follow, then Accept, ...). */
  async function settle() {
    for (let i = 0; i < 3; i++) {
      // A poll's closing job waits an hour: not for it.
      await a.settle({ delayed: false });
      await b.settle({ delayed: false });
    }
  }

  async function api(s: TestServer, user: TestUser, path: string, opts: { method?: string; json?: unknown } = {}) {
    const res = await s.request(path, { method: opts.method ?? "POST", token: user.token, json: opts.json });
    assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** The id `on` gives `username` of `from`, resolved as a signed-in user's search does (lookup stays local). */
  async function lookup(on: TestServer, username: string, from: TestServer): Promise<string> {
    const q = encodeURIComponent(`@${username}@${from.ctx.config.localDomain}`);
    const token = on === a ? alice.token : bob.token;
    const r = await on.request(`/api/v2/search?q=${q}&resolve=true&type=accounts`, { token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.accounts[0], `${username} not found`);
    return r.body.accounts[0].id;
  }

  /** B's copy of a status of A, by its URI. */
  async function onB(uri: string) {
    return b.ctx.repos.statuses.getByUri(uri);
  }

  before(async () => {
    [a, b] = await Promise.all([startTestServer(ALLOW), startTestServer(ALLOW)]);
    alice = await a.createUser("alice");
    lucy = await a.createUser("lucy");
    await api(a, lucy, "/api/v1/accounts/update_credentials", { method: "PATCH", json: { locked: true } });
    bob = await b.createUser("bob");
    aliceOnB = await lookup(b, "alice", a);
    bobOnA = await lookup(a, "bob", b);
    await settle();
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  test("following an open account: requested until A accepts, then following on both sides", async () => {
    const rel = await api(b, bob, `/api/v1/accounts/${aliceOnB}/follow`);
    assert.equal(rel.requested, true);
    await settle();
    const [after] = (await b.request(`/api/v1/accounts/relationships?id[]=${aliceOnB}`, { token: bob.token })).body;
    assert.equal(after.following, true);
    assert.equal(after.requested, false);
    assert.ok(await a.ctx.repos.follows.getFollow(bobOnA, alice.account.id), "A records bob following alice");
  });

  test("following a locked account: requested until its owner authorises", async () => {
    const lucyOnB = await lookup(b, "lucy", a);
    await api(b, bob, `/api/v1/accounts/${lucyOnB}/follow`);
    await settle();
    const rel = async () =>
      (await b.request(`/api/v1/accounts/relationships?id[]=${lucyOnB}`, { token: bob.token })).body[0];
    assert.equal((await rel()).requested, true);
    const requests = await a.request("/api/v1/follow_requests", { token: lucy.token });
    assert.deepEqual(
      requests.body.map((r: { id: string }) => r.id),
      [bobOnA],
    );
    await api(a, lucy, `/api/v1/follow_requests/${bobOnA}/authorize`);
    await settle();
    assert.equal((await rel()).following, true);
  });

  test("a post reaches the remote follower's home timeline", async () => {
    const status = await api(a, alice, "/api/v1/statuses", { json: { status: "Hello B!" } });
    await settle();
    const home = await b.request("/api/v1/timelines/home", { token: bob.token });
    const found = home.body.find((s: { uri: string }) => s.uri === status.uri);
    assert.ok(found, "in bob's home on B");
    assert.match(found.content, /Hello B!/);
    assert.equal(found.account.acct, `alice@${a.ctx.config.localDomain}`);
  });

  test("a reply is threaded on both servers; favourite, boost and mention notify the author", async () => {
    const status = await api(a, alice, "/api/v1/statuses", { json: { status: "Thread start" } });
    await settle();
    const copy = await onB(status.uri);
    assert.ok(copy);
    const reply = await api(b, bob, "/api/v1/statuses", {
      json: { status: `@alice@${a.ctx.config.localDomain} an answer`, in_reply_to_id: copy.id },
    });
    await api(b, bob, `/api/v1/statuses/${copy.id}/favourite`);
    await api(b, bob, `/api/v1/statuses/${copy.id}/reblog`);
    await settle();
    const contextOnA = await a.request(`/api/v1/statuses/${status.id}/context`, { token: alice.token });
    assert.deepEqual(
      contextOnA.body.descendants.map((s: { uri: string }) => s.uri),
      [reply.uri],
    );
    const contextOnB = await b.request(`/api/v1/statuses/${reply.id}/context`, { token: bob.token });
    assert.deepEqual(
      contextOnB.body.ancestors.map((s: { uri: string }) => s.uri),
      [status.uri],
    );
    const notes = await a.request("/api/v1/notifications", { token: alice.token });
    const types = new Set(
      notes.body
        .filter((n: { account: { id: string } }) => n.account.id === bobOnA)
        .map((n: { type: string }) => n.type),
    );
    for (const t of ["mention", "favourite", "reblog"]) assert.ok(types.has(t), `alice got a ${t} notification`);
    const shown = await a.request(`/api/v1/statuses/${status.id}`, { token: alice.token });
    assert.equal(shown.body.favourites_count, 1);
    assert.equal(shown.body.reblogs_count, 1);
  });

  test("an edit and a delete propagate", async () => {
    const status = await api(a, alice, "/api/v1/statuses", { json: { status: "Draft one" } });
    await settle();
    await api(a, alice, `/api/v1/statuses/${status.id}`, { method: "PUT", json: { status: "Draft two" } });
    await settle();
    assert.match((await onB(status.uri))?.content ?? "", /Draft two/);
    await api(a, alice, `/api/v1/statuses/${status.id}`, { method: "DELETE" });
    await settle();
    const gone = await onB(status.uri);
    assert.ok(!gone || gone.deletedAt !== null, "deleted on B");
  });

  test("a poll vote on B is counted on A", async () => {
    const status = await api(a, alice, "/api/v1/statuses", {
      json: { status: "Tea or coffee?", poll: { options: ["tea", "coffee"], expires_in: 3600 } },
    });
    await settle();
    const copy = await onB(status.uri);
    assert.ok(copy?.pollId, "B stored the poll");
    await api(b, bob, `/api/v1/polls/${copy.pollId}/votes`, { json: { choices: [1] } });
    await settle();
    const poll = await a.request(`/api/v1/polls/${status.poll.id}`, { token: alice.token });
    assert.equal(poll.body.votes_count, 1);
    assert.deepEqual(
      poll.body.options.map((o: { votes_count: number }) => o.votes_count),
      [0, 1],
    );
  });

  test("a profile update reaches the remote copy of the account", async () => {
    await api(a, alice, "/api/v1/accounts/update_credentials", {
      method: "PATCH",
      json: { display_name: "Alice of A", note: "Now with a bio" },
    });
    await settle();
    const copy = await b.request(`/api/v1/accounts/${aliceOnB}`);
    assert.equal(copy.body.display_name, "Alice of A");
    assert.match(copy.body.note, /Now with a bio/);
  });

  test("pinning and unpinning show on the remote profile", async () => {
    const status = await api(a, alice, "/api/v1/statuses", { json: { status: "Pinned post" } });
    await settle();
    await api(a, alice, `/api/v1/statuses/${status.id}/pin`);
    await settle();
    const pinned = async () =>
      (await b.request(`/api/v1/accounts/${aliceOnB}/statuses?pinned=true`, { token: bob.token })).body.map(
        (s: { uri: string }) => s.uri,
      );
    assert.deepEqual(await pinned(), [status.uri]);
    await api(a, alice, `/api/v1/statuses/${status.id}/unpin`);
    await settle();
    assert.deepEqual(await pinned(), []);
  });

  test("featuring and unfeaturing a hashtag show on the remote profile", async () => {
    const tag = await api(a, alice, "/api/v1/featured_tags", { json: { name: "gannets" } });
    await settle();
    const featured = async () =>
      (await b.request(`/api/v1/accounts/${aliceOnB}/featured_tags`)).body.map((t: { name: string }) => t.name);
    assert.deepEqual(await featured(), ["gannets"]);
    await api(a, alice, `/api/v1/featured_tags/${tag.id}`, { method: "DELETE" });
    await settle();
    assert.deepEqual(await featured(), []);
  });

  test("a block ends the remote follow", async () => {
    const charlie = await b.createUser("charlie");
    const charlieOnA = await lookup(a, "charlie", b);
    await settle();
    await api(b, charlie, `/api/v1/accounts/${aliceOnB}/follow`);
    await settle();
    assert.ok(await a.ctx.repos.follows.getFollow(charlieOnA, alice.account.id));
    await api(a, alice, `/api/v1/accounts/${charlieOnA}/block`);
    await settle();
    const [rel] = (await b.request(`/api/v1/accounts/relationships?id[]=${aliceOnB}`, { token: charlie.token })).body;
    assert.equal(rel.following, false);
    assert.equal(await a.ctx.repos.follows.getFollow(charlieOnA, alice.account.id), undefined);
  });

  test("moving alice to B: followers on B follow the new account", async () => {
    const newAlice = await b.createUser("newalice");
    const io = { out: async () => {}, err: async () => {} };
    const aliases = parseCommand(["accounts", "aliases", "newalice", "--add", `alice@${a.ctx.config.localDomain}`]);
    if (aliases.kind !== "accounts-aliases") throw new Error("parse");
    await accountsAliases(b.ctx, aliases, io);
    const move = parseCommand(["accounts", "move", "alice", "--to", `newalice@${b.ctx.config.localDomain}`]);
    if (move.kind !== "accounts-move") throw new Error("parse");
    await accountsMove(a.ctx, move, io);
    await settle();
    assert.ok(await b.ctx.repos.follows.getFollow(bob.account.id, newAlice.account.id), "bob follows newalice");
    const moved = await b.request(`/api/v1/accounts/${aliceOnB}`);
    assert.equal(moved.body.moved?.id, newAlice.account.id);
  });
});
