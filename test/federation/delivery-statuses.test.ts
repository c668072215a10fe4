import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { type FakeActor, type FakeRemote, hasValidSignature, startFakeRemote } from "./fake-remote.ts";

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

describe("delivery of posts to remote servers", () => {
  let server: TestServer;
  let fake: FakeRemote;
  let other: FakeRemote;
  let alice: TestUser;
  let bob: FakeActor;
  let carol: FakeActor;
  let dave: FakeActor;
  const followersOf = (u: TestUser) => `${server.ctx.config.baseUrl}/users/${u.account.username}/followers`;

  before(async () => {
    server = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    fake = await startFakeRemote();
    other = await startFakeRemote();
    alice = await server.createUser("alice");
    bob = await fake.addActor(server, "bob");
    carol = await fake.addActor(server, "carol");
    dave = await other.addActor(server, "dave", { sharedInbox: false });
    for (const f of [bob, carol]) {
      await server.ctx.repos.follows.insert({
        id: server.ctx.ids.next(),
        account_id: f.accountId,
        target_account_id: alice.account.id,
        uri: `${f.uri}#follows/1`,
        created_at: new Date().toISOString(),
      });
    }
  });
  after(async () => {
    await server.close();
    await fake.close();
    await other.close();
  });

  async function post(params: Record<string, unknown>, user = alice) {
    const res = await server.request("/api/v1/statuses", { method: "POST", token: user.token, json: params });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await server.settle();
    return res.body;
  }

  test("a public post reaches the followers' shared inbox once, signed and addressed to Public", async () => {
    fake.clear();
    const status = await post({ status: "hello fediverse", visibility: "public" });
    const creates = fake.activities("Create");
    assert.equal(creates.length, 1, "two followers on one server: one delivery");
    const [c] = creates;
    assert.equal(c.path, "/inbox");
    assert.equal(c.body.actor, `${server.ctx.config.baseUrl}/users/alice`);
    assert.equal(c.body.object.id, status.uri);
    assert.equal(c.body.object.type, "Note");
    assert.deepEqual([c.body.to].flat(), [PUBLIC]);
    assert.deepEqual([c.body.cc].flat(), [followersOf(alice)]);
    assert.ok(c.headers.signature || c.headers["signature-input"], "signed");
    assert.ok(
      await hasValidSignature(c, fake, `${server.ctx.config.baseUrl}/users/alice`),
      "the signature verifies with alice's key",
    );
    assert.equal(other.received.length, 0, "dave does not follow alice");
  });

  test("unlisted goes to followers with Public in cc; private only to followers", async () => {
    fake.clear();
    await post({ status: "quietly", visibility: "unlisted" });
    const [u] = fake.activities("Create");
    assert.deepEqual([u.body.to].flat(), [followersOf(alice)]);
    assert.deepEqual([u.body.cc].flat(), [PUBLIC]);
    fake.clear();
    await post({ status: "friends only", visibility: "private" });
    const [p] = fake.activities("Create");
    assert.deepEqual([p.body.to].flat(), [followersOf(alice)]);
    assert.ok(![p.body.cc ?? []].flat().includes(PUBLIC));
  });

  test("a mention reaches the mentioned account's own inbox and is addressed to it", async () => {
    fake.clear();
    await post({ status: `hi @dave@${other.domain}`, visibility: "public" });
    const [toDave] = other.activities("Create");
    assert.equal(toDave.path, "/users/dave/inbox");
    assert.ok([toDave.body.cc].flat().includes(dave.uri));
    assert.equal(fake.activities("Create").length, 1, "the followers still get it");
  });

  test("a direct post goes only to the mentioned accounts", async () => {
    fake.clear();
    other.clear();
    await post({ status: `psst @dave@${other.domain}`, visibility: "direct" });
    assert.equal(fake.received.length, 0, "followers get nothing");
    const [d] = other.activities("Create");
    assert.deepEqual([d.body.to].flat(), [dave.uri]);
    assert.equal(d.body.cc, undefined);
  });

  test("a reply to a remote post goes to its author too, threaded by inReplyTo", async () => {
    other.clear();
    const parentId = await other.addStatus(server, dave);
    const parent = await server.ctx.repos.statuses.getById(parentId);
    await post({ status: "an answer", in_reply_to_id: parentId });
    const [r] = other.activities("Create");
    assert.ok(r, "dave's server got the reply");
    assert.equal(r.body.object.inReplyTo, parent?.uri);
  });

  test("an edit sends Update, a delete sends Delete with a Tombstone", async () => {
    const status = await post({ status: "first version" });
    // dave (who does not follow alice) answered it: its edit and deletion reach his server too.
    await other.addStatus(server, dave, { inReplyToId: status.id });
    fake.clear();
    other.clear();
    const edited = await server.request(`/api/v1/statuses/${status.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "second version" },
    });
    assert.equal(edited.status, 200);
    await server.settle();
    const [u] = fake.activities("Update");
    assert.equal(u.body.object.id, status.uri);
    assert.match(JSON.stringify(u.body.object.content), /second version/);
    assert.ok(u.body.id.startsWith(`${status.uri}#updates/`));
    assert.equal(other.activities("Update").length, 1, "the replier's server gets the edit");
    fake.clear();
    const del = await server.request(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    await server.settle();
    const [d] = fake.activities("Delete");
    assert.equal(d.body.object.type, "Tombstone");
    assert.equal(d.body.object.id, status.uri);
  });

  test("local-only audiences: nothing is sent when nobody remote is concerned", async () => {
    const loner = await server.createUser("loner");
    fake.clear();
    other.clear();
    await post({ status: "just us here" }, loner);
    assert.equal(fake.received.length + other.received.length, 0);
  });

  test("nothing is delivered to a suspended domain; a silenced one still gets posts", async () => {
    const block = (severity: "silence" | "suspend") =>
      server.ctx.repos.instanceDomainBlocks.upsert(
        {
          domain: fake.domain,
          severity,
          rejectMedia: false,
          rejectReports: false,
          privateComment: null,
          publicComment: null,
          obfuscate: false,
        },
        server.ctx.ids.next(),
        new Date().toISOString(),
      );
    await block("silence");
    fake.clear();
    await post({ status: "still federated" });
    assert.equal(fake.activities("Create").length, 1);
    await block("suspend");
    fake.clear();
    other.clear();
    await post({ status: `not to them, but to @dave@${other.domain}` });
    assert.equal(fake.received.length, 0, "the suspended domain gets nothing");
    assert.equal(other.activities("Create").length, 1, "other domains still do");
    await server.ctx.repos.instanceDomainBlocks.delete(fake.domain);
  });
});
