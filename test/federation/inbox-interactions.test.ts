import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/db/repositories/accounts.ts";
import { type FakeActor, FakeRemote, PUBLIC } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("inbox: follows, favourites, boosts, blocks, reports, moves and featured collections", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let bob: FakeActor;
  let alice: TestUser;
  let carol: TestUser;
  let inbox: string;
  let bobAccount: Account;

  const settle = () => s.settle({ delayed: false, skip: ["media.cache-remote"], allowDead: true });
  const post = async (user: TestUser, status: string) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: user.token, json: { status } });
    assert.equal(r.status, 200);
    return r.body as { id: string; uri: string };
  };
  const notifications = async (user: TestUser, type: string) =>
    (await s.request("/api/v1/notifications", { token: user.token })).body.filter((n: any) => n.type === type);

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    bob = await remote.addActor("bob");
    alice = await s.createUser("alice");
    carol = await s.createUser("carol");
    inbox = `${s.url}/inbox`;
    // Gannet learns of bob through a first post of his.
    assert.equal((await remote.send(inbox, remote.create(bob, remote.note(bob, "hello")))).status, 202);
    await settle();
    const stored = await s.ctx.repos.accounts.getByUri(bob.id);
    assert.ok(stored);
    bobAccount = stored;
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("Follow of an open account: a follow, a notification and an Accept; Undo ends it", async () => {
    const follow = remote.activity(bob, "Follow", { object: alice.account.uri });
    assert.equal((await remote.send(inbox, follow)).status, 202);
    await settle();
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${bobAccount.id}`, { token: alice.token });
    assert.equal(rel.body[0].followed_by, true);
    assert.equal((await notifications(alice, "follow")).length, 1);
    const accepts = remote.receivedOfType("Accept");
    assert.equal(accepts.length, 1);
    const acceptedFollow = accepts[0].body.object;
    assert.equal(typeof acceptedFollow === "string" ? acceptedFollow : acceptedFollow.id, follow.id);
    const undo = remote.activity(bob, "Undo", { object: follow });
    assert.equal((await remote.send(inbox, undo)).status, 202);
    await settle();
    const after = await s.request(`/api/v1/accounts/relationships?id[]=${bobAccount.id}`, { token: alice.token });
    assert.equal(after.body[0].followed_by, false);
    assert.equal((await s.ctx.repos.accounts.getById(alice.account.id))?.followersCount, 0);
  });

  it("Follow of a locked account: a request and a follow_request notification, no Accept yet", async () => {
    const dave = await s.createUser("dave");
    const locked = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: dave.token,
      json: { locked: true },
    });
    assert.equal(locked.status, 200);
    const before = remote.receivedOfType("Accept").length;
    const follow = remote.activity(bob, "Follow", { object: dave.account.uri });
    assert.equal((await remote.send(inbox, follow)).status, 202);
    await settle();
    const requests = await s.request("/api/v1/follow_requests", { token: dave.token });
    assert.deepEqual(
      requests.body.map((a: any) => a.id),
      [bobAccount.id],
    );
    assert.equal((await notifications(dave, "follow_request")).length, 1);
    assert.equal(remote.receivedOfType("Accept").length, before);
  });

  it("Like notifies the author and Undo takes the favourite back", async () => {
    const p = await post(alice, "like this");
    const like = remote.activity(bob, "Like", { object: p.uri });
    assert.equal((await remote.send(inbox, like)).status, 202);
    await settle();
    const fav = await notifications(alice, "favourite");
    assert.equal(fav.length, 1);
    assert.equal(fav[0].account.id, bobAccount.id);
    assert.equal((await s.request(`/api/v1/statuses/${p.id}`, { token: alice.token })).body.favourites_count, 1);
    assert.equal((await remote.send(inbox, remote.activity(bob, "Undo", { object: like }))).status, 202);
    await settle();
    assert.equal((await s.request(`/api/v1/statuses/${p.id}`, { token: alice.token })).body.favourites_count, 0);
  });

  it("Announce boosts (notified, fanned out to followers) and Undo removes the boost", async () => {
    const p = await post(alice, "boost this");
    await s.follow(carol, { account: bobAccount });
    const announce = {
      ...remote.activity(bob, "Announce", { object: p.uri, to: [PUBLIC], cc: [bob.followers, alice.account.uri] }),
      id: `${bob.id}/statuses/boost1/activity`,
      published: new Date().toISOString(),
    };
    assert.equal((await remote.send(inbox, announce)).status, 202);
    await settle();
    const reblogs = await notifications(alice, "reblog");
    assert.equal(reblogs.length, 1);
    const home = await s.request("/api/v1/timelines/home", { token: carol.token });
    const boost = home.body.find((st: any) => st.reblog?.id === p.id);
    assert.ok(boost, JSON.stringify(home.body.map((x: any) => x.uri)));
    assert.equal(boost.account.id, bobAccount.id);
    assert.equal((await s.request(`/api/v1/statuses/${p.id}`, { token: alice.token })).body.reblogs_count, 1);
    assert.equal((await remote.send(inbox, remote.activity(bob, "Undo", { object: announce }))).status, 202);
    await settle();
    assert.equal((await s.request(`/api/v1/statuses/${p.id}`, { token: alice.token })).body.reblogs_count, 0);
    const homeAfter = await s.request("/api/v1/timelines/home", { token: carol.token });
    assert.equal(
      homeAfter.body.some((st: any) => st.reblog?.id === p.id),
      false,
    );
  });

  it("Add and Remove change the remote account's pinned posts and featured hashtags", async () => {
    const n = remote.note(bob, "pinme");
    assert.equal((await remote.send(inbox, remote.create(bob, n))).status, 202);
    await settle();
    const add = remote.activity(bob, "Add", { object: n.id, target: bob.featured });
    const addTag = remote.activity(bob, "Add", {
      object: { type: "Hashtag", href: `${remote.origin}/tags/cats`, name: "#cats" },
      target: bob.featuredTags,
    });
    for (const a of [add, addTag]) assert.equal((await remote.send(inbox, a)).status, 202);
    await settle();
    const pinned = await s.request(`/api/v1/accounts/${bobAccount.id}/statuses?pinned=true`, { token: alice.token });
    assert.deepEqual(
      pinned.body.map((st: any) => st.uri),
      [n.id],
    );
    const tags = await s.request(`/api/v1/accounts/${bobAccount.id}/featured_tags`, { token: alice.token });
    assert.deepEqual(
      tags.body.map((t: any) => t.name),
      ["cats"],
    );
    const remove = remote.activity(bob, "Remove", { object: n.id, target: bob.featured });
    const removeTag = remote.activity(bob, "Remove", { object: addTag.object, target: bob.featuredTags });
    for (const r of [remove, removeTag]) assert.equal((await remote.send(inbox, r)).status, 202);
    await settle();
    const unpinned = await s.request(`/api/v1/accounts/${bobAccount.id}/statuses?pinned=true`, { token: alice.token });
    assert.deepEqual(unpinned.body, []);
    const noTags = await s.request(`/api/v1/accounts/${bobAccount.id}/featured_tags`, { token: alice.token });
    assert.deepEqual(noTags.body, []);
  });

  it("Flag becomes a report against the local account, with the local posts named", async () => {
    const p = await post(alice, "reported post");
    const flag = remote.activity(bob, "Flag", { object: [alice.account.uri, p.uri], content: "Spam, clearly" });
    assert.equal((await remote.send(inbox, flag)).status, 202);
    await settle();
    const reports = await s.ctx.db.selectFrom("reports").selectAll().execute();
    assert.equal(reports.length, 1);
    assert.equal(String(reports[0].target_account_id), alice.account.id);
    assert.equal(String(reports[0].account_id), bobAccount.id);
    assert.equal(reports[0].comment, "Spam, clearly");
    assert.deepEqual(JSON.parse(reports[0].status_ids), [p.id]);
  });

  it("Block ends the follows both ways and hides the blocker's posts from the blocked", async () => {
    const erin = await s.createUser("erin");
    await s.follow(erin, { account: bobAccount });
    const n = remote.note(bob, "before-block");
    assert.equal((await remote.send(inbox, remote.create(bob, n))).status, 202);
    await settle();
    const st = await s.ctx.repos.statuses.getByUri(n.id);
    assert.equal((await s.request(`/api/v1/statuses/${st?.id}`, { token: erin.token })).status, 200);
    const block = remote.activity(bob, "Block", { object: erin.account.uri });
    assert.equal((await remote.send(inbox, block)).status, 202);
    await settle();
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${bobAccount.id}`, { token: erin.token });
    assert.equal(rel.body[0].following, false);
    assert.equal(rel.body[0].blocked_by, true);
    assert.equal((await s.request(`/api/v1/statuses/${st?.id}`, { token: erin.token })).status, 404);
    const home = await s.request("/api/v1/timelines/home", { token: erin.token });
    assert.equal(
      home.body.some((x: any) => x.uri === n.id),
      false,
    );
    assert.equal((await remote.send(inbox, remote.activity(bob, "Undo", { object: block }))).status, 202);
    await settle();
    const unblocked = await s.request(`/api/v1/accounts/relationships?id[]=${bobAccount.id}`, { token: erin.token });
    assert.equal(unblocked.body[0].blocked_by, false);
  });

  it("Move: verified by the new account's alsoKnownAs, followers follow it, notes are copied", async () => {
    const old = await remote.addActor("oldname");
    const target = await remote.addActor("newname", { alsoKnownAs: [old.id] });
    const impostor = await remote.addActor("impostor");
    assert.equal((await remote.send(inbox, remote.create(old, remote.note(old, "hi")))).status, 202);
    await settle();
    const oldAccount = await s.ctx.repos.accounts.getByUri(old.id);
    assert.ok(oldAccount);
    const frank = await s.createUser("frank");
    await s.follow(frank, { account: oldAccount });
    const note = await s.request(`/api/v1/accounts/${oldAccount.id}/note`, {
      method: "POST",
      token: frank.token,
      json: { comment: "met at the conference" },
    });
    assert.equal(note.status, 200);
    // A Move to an account that does not name the old one is ignored.
    const bogus = remote.activity(old, "Move", { object: old.id, target: impostor.id });
    assert.equal((await remote.send(inbox, bogus)).status, 202);
    await settle();
    assert.equal((await s.ctx.repos.accounts.getById(oldAccount.id))?.movedToAccountId, null);
    const move = remote.activity(old, "Move", { object: old.id, target: target.id });
    assert.equal((await remote.send(inbox, move)).status, 202);
    await settle();
    const newAccount = await s.ctx.repos.accounts.getByUri(target.id);
    assert.ok(newAccount);
    assert.equal((await s.ctx.repos.accounts.getById(oldAccount.id))?.movedToAccountId, newAccount.id);
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${newAccount.id}&id[]=${oldAccount.id}`, {
      token: frank.token,
    });
    const toNew = rel.body.find((r: any) => r.id === newAccount.id);
    const toOld = rel.body.find((r: any) => r.id === oldAccount.id);
    assert.equal(toNew.following || toNew.requested, true, JSON.stringify(rel.body));
    assert.equal(toNew.note, "met at the conference");
    assert.equal(toOld.following, false);
    const follows = remote.receivedOfType("Follow").filter((f) => f.body.object === target.id);
    assert.equal(follows.length, 1);
  });

  it("Update of the sender's actor refreshes the profile; Delete of it removes the account's posts", async () => {
    const gone = await remote.addActor("leaving", { name: "Before", summary: "<p>old bio</p>" });
    const n = remote.note(gone, "last");
    assert.equal((await remote.send(inbox, remote.create(gone, n))).status, 202);
    await settle();
    const account = await s.ctx.repos.accounts.getByUri(gone.id);
    assert.equal(account?.displayName, "Before");
    const profile = {
      ...remote.actorDocument(gone),
      name: "After",
      summary: '<p>new bio <script>x()</script><a href="https://x.example/">link</a></p>',
    };
    delete (profile as Record<string, unknown>)["@context"];
    assert.equal((await remote.send(inbox, remote.activity(gone, "Update", { object: profile }))).status, 202);
    await settle();
    const updated = await s.ctx.repos.accounts.getByUri(gone.id);
    assert.equal(updated?.displayName, "After");
    assert.equal(
      updated?.note,
      '<p>new bio <a href="https://x.example/" rel="nofollow noopener" target="_blank">link</a></p>',
    );
    // Another actor cannot update it.
    const other = { ...profile, name: "Hijacked" };
    assert.equal((await remote.send(inbox, remote.activity(bob, "Update", { object: other }))).status, 202);
    await settle();
    assert.equal((await s.ctx.repos.accounts.getByUri(gone.id))?.displayName, "After");
    const del = remote.activity(gone, "Delete", { object: gone.id, to: [PUBLIC] });
    assert.equal((await remote.send(inbox, del)).status, 202);
    await settle();
    const deleted = await s.ctx.repos.accounts.getByUri(gone.id);
    assert.equal(deleted?.suspensionOrigin, "deleted");
    assert.notEqual((await s.ctx.repos.statuses.getByUri(n.id))?.deletedAt, null);
    assert.equal((await s.request(`/api/v1/accounts/${deleted?.id}`, { token: alice.token })).status, 410);
  });
});
