import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { verifyRequest } from "@fedify/fedify";
import { deleteLocalAccount } from "../../src/services/admin/delete-local-account.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { type FakeActor, type FakeRemote, startFakeRemote } from "./fake-remote.ts";

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

describe("delivery of interactions, relationships and profile changes", () => {
  let server: TestServer;
  let fake: FakeRemote;
  let alice: TestUser;
  let bob: FakeActor;
  let carol: FakeActor;
  let aliceUri: string;

  before(async () => {
    server = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    fake = await startFakeRemote();
    alice = await server.createUser("alice");
    aliceUri = `${server.ctx.config.baseUrl}/users/alice`;
    bob = await fake.addActor(server, "bob", { sharedInbox: false });
    carol = await fake.addActor(server, "carol");
    // carol follows alice: what alice does about herself reaches carol's server.
    await server.ctx.repos.follows.insert({
      id: server.ctx.ids.next(),
      account_id: carol.accountId,
      target_account_id: alice.account.id,
      uri: `${carol.uri}#follows/1`,
      created_at: new Date().toISOString(),
    });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });

  async function call(path: string, opts: { method?: string; json?: unknown } = {}) {
    const res = await server.request(path, { method: opts.method ?? "POST", token: alice.token, json: opts.json });
    assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
    await server.settle();
    return res.body;
  }

  test("boosting a remote post sends Announce to followers and the author; unboosting sends Undo", async () => {
    const statusId = await fake.addStatus(server, bob);
    const original = await server.ctx.repos.statuses.getById(statusId);
    fake.clear();
    const boost = await call(`/api/v1/statuses/${statusId}/reblog`);
    const announces = fake.activities("Announce");
    assert.deepEqual(announces.map((r) => r.path).sort(), ["/inbox", "/users/bob/inbox"]);
    const [a] = announces;
    assert.equal(a.body.object, original?.uri);
    assert.equal(a.body.id, boost.uri);
    assert.deepEqual([a.body.to].flat(), [PUBLIC]);
    assert.ok([a.body.cc].flat().includes(bob.uri));
    fake.clear();
    await call(`/api/v1/statuses/${statusId}/unreblog`);
    const [u] = fake.activities("Undo", "/users/bob/inbox");
    assert.equal(u.body.object.type, "Announce");
    assert.equal(u.body.object.id, boost.uri);
  });

  test("favouriting sends Like to the author only; unfavouriting sends Undo of that Like", async () => {
    const statusId = await fake.addStatus(server, bob);
    const original = await server.ctx.repos.statuses.getById(statusId);
    fake.clear();
    await call(`/api/v1/statuses/${statusId}/favourite`);
    assert.deepEqual(
      fake.received.map((r) => [r.path, r.body.type]),
      [["/users/bob/inbox", "Like"]],
    );
    const like = fake.received[0].body;
    assert.equal(like.object, original?.uri);
    assert.equal(like.actor, aliceUri);
    fake.clear();
    await call(`/api/v1/statuses/${statusId}/unfavourite`);
    const [u] = fake.activities("Undo");
    assert.equal(u.body.object.id, like.id);
    assert.equal(u.body.object.type, "Like");
  });

  test("voting in a remote poll sends one Create of a Note named after the option, to the poll's author", async () => {
    const statusId = await fake.addStatus(server, bob, { pollOptions: ["tea", "coffee"] });
    const status = await server.ctx.repos.statuses.getById(statusId);
    fake.clear();
    await call(`/api/v1/polls/${status?.pollId}/votes`, { json: { choices: [1] } });
    const [c] = fake.activities("Create");
    assert.equal(c.path, "/users/bob/inbox");
    assert.equal(c.body.object.type, "Note");
    assert.equal(c.body.object.name, "coffee");
    assert.equal(c.body.object.inReplyTo, status?.uri);
    assert.deepEqual([c.body.object.to].flat(), [bob.uri]);
    assert.equal(fake.received.length, 1, "nobody else is told of a vote");
  });

  test("following a remote account sends Follow and waits as a request; unfollowing sends Undo", async () => {
    fake.clear();
    const rel = await call(`/api/v1/accounts/${bob.accountId}/follow`);
    assert.equal(rel.following, false);
    assert.equal(rel.requested, true, "pending until the remote server accepts");
    const [f] = fake.activities("Follow");
    assert.equal(f.path, "/users/bob/inbox");
    assert.equal(f.body.object, bob.uri);
    assert.equal(f.body.actor, aliceUri);
    const request = await server.ctx.repos.follows.getRequest(alice.account.id, bob.accountId);
    assert.equal(request?.uri, f.body.id, "the request keeps the Follow's id for the Accept");
    fake.clear();
    await call(`/api/v1/accounts/${bob.accountId}/unfollow`);
    const [u] = fake.activities("Undo");
    assert.equal(u.body.object.type, "Follow");
    assert.equal(u.body.object.id, f.body.id);
  });

  test("a locked account authorising or rejecting a remote request sends Accept or Reject of its Follow", async () => {
    const locked = await server.createUser("locked");
    await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: locked.token,
      json: { locked: true },
    });
    for (const [who, verb, type] of [
      [bob, "authorize", "Accept"],
      [carol, "reject", "Reject"],
    ] as const) {
      const followUri = `${who.uri}#follows/${verb}`;
      await server.ctx.repos.follows.insertRequest({
        id: server.ctx.ids.next(),
        account_id: who.accountId,
        target_account_id: locked.account.id,
        show_reblogs: true,
        notify: false,
        languages: null,
        uri: followUri,
        created_at: new Date().toISOString(),
      });
      await server.settle();
      fake.clear();
      const res = await server.request(`/api/v1/follow_requests/${who.accountId}/${verb}`, {
        method: "POST",
        token: locked.token,
      });
      assert.equal(res.status, 200);
      await server.settle();
      const [answer] = fake.activities(type);
      assert.ok(answer, `${type} sent`);
      assert.equal(answer.body.actor, `${server.ctx.config.baseUrl}/users/locked`);
      assert.equal(answer.body.object.type, "Follow");
      assert.equal(answer.body.object.id, followUri);
    }
    assert.ok(await server.ctx.repos.follows.getFollow(bob.accountId, locked.account.id), "bob follows now");
  });

  test("blocking sends Block, unblocking sends Undo of it", async () => {
    fake.clear();
    await call(`/api/v1/accounts/${bob.accountId}/block`);
    const [b] = fake.activities("Block");
    assert.equal(b.path, "/users/bob/inbox");
    assert.equal(b.body.object, bob.uri);
    fake.clear();
    await call(`/api/v1/accounts/${bob.accountId}/unblock`);
    const [u] = fake.activities("Undo");
    assert.equal(u.body.object.id, b.body.id);
  });

  test("a profile change sends Update of the actor to the followers", async () => {
    fake.clear();
    await call("/api/v1/accounts/update_credentials", { method: "PATCH", json: { display_name: "Alice A." } });
    const [u] = fake.activities("Update", "/inbox");
    assert.equal(u.body.object.id, aliceUri);
    assert.equal(u.body.object.name, "Alice A.");
    assert.equal(u.body.object.type, "Person");
  });

  test("pinning and unpinning send Add and Remove on the featured collection", async () => {
    const status = await call("/api/v1/statuses", { json: { status: "pin me" } });
    fake.clear();
    await call(`/api/v1/statuses/${status.id}/pin`);
    const [add] = fake.activities("Add");
    assert.equal(add.body.object, status.uri);
    assert.equal(add.body.target, `${aliceUri}/collections/featured`);
    fake.clear();
    await call(`/api/v1/statuses/${status.id}/unpin`);
    const [remove] = fake.activities("Remove");
    assert.equal(remove.body.object, status.uri);
  });

  test("featuring and unfeaturing a hashtag send Add and Remove of a Hashtag", async () => {
    fake.clear();
    const tag = await call("/api/v1/featured_tags", { json: { name: "Gannets" } });
    const [add] = fake.activities("Add");
    assert.equal(add.body.object.type, "Hashtag");
    assert.equal(add.body.object.name, "#Gannets");
    assert.match(add.body.object.href, /\/tags\/Gannets$/);
    fake.clear();
    await call(`/api/v1/featured_tags/${tag.id}`, { method: "DELETE" });
    const [remove] = fake.activities("Remove");
    assert.equal(remove.body.object.type, "Hashtag");
    assert.equal(remove.body.object.name, "#Gannets");
  });

  test("a report forwarded about a remote account sends Flag from the instance actor", async () => {
    const statusId = await fake.addStatus(server, carol);
    const status = await server.ctx.repos.statuses.getById(statusId);
    fake.clear();
    const report = await call("/api/v1/reports", {
      json: { account_id: carol.accountId, status_ids: [statusId], comment: "spam", forward: true },
    });
    assert.equal(report.forwarded, true);
    const [flag] = fake.activities("Flag");
    assert.equal(flag.body.actor, `${server.ctx.config.baseUrl}/actor`);
    assert.deepEqual([flag.body.object].flat().sort(), [carol.uri, status?.uri].sort());
    assert.equal(flag.body.content, "spam");
    fake.clear();
    const unforwarded = await call("/api/v1/reports", { json: { account_id: carol.accountId, comment: "again" } });
    assert.equal(unforwarded.forwarded, false);
    assert.equal(fake.received.length, 0, "not forwarded unless asked");
  });

  test("deleting an account sends Delete of the actor, signed with its key, to every known server", async () => {
    const dora = await server.createUser("dora");
    const doraUri = `${server.ctx.config.baseUrl}/users/dora`;
    // The actor as remote servers cached it: once deleted it is a Tombstone without keys.
    const actorDoc = await (await fetch(doraUri, { headers: { accept: "application/activity+json" } })).json();
    fake.clear();
    await deleteLocalAccount(server.ctx, { account: dora.account, user: dora.user });
    await server.settle();
    const deletes = fake.activities("Delete");
    // bob has no shared inbox, carol has: both servers' inboxes, once each.
    assert.deepEqual(deletes.map((r) => r.path).sort(), ["/inbox", "/users/bob/inbox"]);
    for (const d of deletes) {
      assert.equal(d.body.actor, doraUri);
      assert.equal(d.body.object, doraUri);
      assert.deepEqual([d.body.to].flat(), [PUBLIC]);
      const request = new Request(`${fake.base}${d.path}`, { method: "POST", headers: d.headers, body: d.raw });
      const key = await verifyRequest(request, {
        documentLoader: async (url) => ({ contextUrl: null, documentUrl: url, document: actorDoc }),
      });
      assert.equal(key?.ownerId?.href, doraUri, "signed with dora's key");
    }
    // Nothing for an account that is not deleted: the job plans nothing.
    fake.clear();
    await server.ctx.queue.enqueue("federation.deliver", { type: "actor.delete", accountId: alice.account.id });
    await server.settle();
    assert.equal(fake.activities("Delete").length, 0);
  });

  test("blocking a domain sends Undo of the caller's follows there and Reject of its follows of the caller", async () => {
    const erin = await server.createUser("erin");
    const now = new Date().toISOString();
    // Two accounts of blocked.example whose inboxes are the fake server's (one shared inbox).
    const remote = async (name: string) => {
      const id = server.ctx.ids.next();
      const uri = `${fake.base}/users/${name}`;
      await server.ctx.repos.accounts.insert({
        id,
        username: name,
        domain: "blocked.example",
        uri,
        url: uri,
        inbox_url: `${uri}/inbox`,
        shared_inbox_url: null,
        created_at: now,
        updated_at: now,
      });
      return { id, uri };
    };
    const frank = await remote("frank");
    const gina = await remote("gina");
    const follow = (from: string, to: string, uri: string) =>
      server.ctx.repos.follows.insert({
        id: server.ctx.ids.next(),
        account_id: from,
        target_account_id: to,
        uri,
        created_at: now,
      });
    await follow(erin.account.id, frank.id, `${server.ctx.config.baseUrl}/follows/erin-frank`);
    await follow(gina.id, erin.account.id, `${gina.uri}#follows/erin`);
    fake.clear();
    const res = await server.request("/api/v1/domain_blocks", {
      method: "POST",
      token: erin.token,
      json: { domain: "blocked.example" },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await server.settle();
    const [undo] = fake.activities("Undo", "/users/frank/inbox");
    assert.ok(undo, JSON.stringify(fake.received.map((r) => [r.path, r.body?.type])));
    assert.equal(undo.body.actor, `${server.ctx.config.baseUrl}/users/erin`);
    assert.equal(undo.body.object.type, "Follow");
    assert.equal(undo.body.object.id, `${server.ctx.config.baseUrl}/follows/erin-frank`);
    const [reject] = fake.activities("Reject", "/users/gina/inbox");
    assert.ok(reject, JSON.stringify(fake.received.map((r) => [r.path, r.body?.type])));
    assert.equal(reject.body.object.type, "Follow");
    assert.equal(reject.body.object.id, `${gina.uri}#follows/erin`);
    assert.equal(reject.body.object.actor, gina.uri);
    // The follows are gone both ways.
    assert.equal(await server.ctx.repos.follows.getFollow(erin.account.id, frank.id), undefined);
    assert.equal(await server.ctx.repos.follows.getFollow(gina.id, erin.account.id), undefined);
  });
});
