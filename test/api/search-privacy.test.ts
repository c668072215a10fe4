import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type FakeActor, FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Full-text status search as Mastodon 4.2+ scopes it: others' posts only when public and their
 * author opted in (`indexable`), plus the searcher's library (own posts, favourited, boosted,
 * bookmarked, voted in, mentioned in); never what the searcher may not see.
 */
describe("search: whose statuses full-text search may find", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let shy: TestUser; // indexable: false (the default)
  let open: TestUser; // indexable: true
  let carol: TestUser; // the searcher
  let dave: TestUser; // another searcher, who did nothing with the posts

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string; poll?: { id: string } };
  };
  const act = async (u: TestUser, path: string, json?: Record<string, unknown>) => {
    const r = await s.request(path, { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  };
  const found = async (u: TestUser, text: string): Promise<string[]> => {
    const r = await s.request(`/api/v2/search?q=${encodeURIComponent(text)}&type=statuses&limit=40`, {
      token: u.token,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.statuses.map((x: { id: string }) => x.id);
  };

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    shy = await s.createUser("shy");
    open = await s.createUser("open");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: open.token,
      json: { indexable: true },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.indexable, true);
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("others' public posts only when their author is indexable; opting in and out takes effect at once", async () => {
    const hidden = await post(shy, { status: "quokka from a shy author" });
    const shown = await post(open, { status: "quokka from an open author" });
    assert.deepEqual(await found(carol, "quokka"), [shown.id]);
    assert.deepEqual(await found(carol, "quokka in:public"), [shown.id]);
    const optIn = { method: "PATCH", token: shy.token, json: { indexable: true } } as const;
    assert.equal((await s.request("/api/v1/accounts/update_credentials", optIn)).status, 200);
    assert.deepEqual(await found(carol, "quokka"), [shown.id, hidden.id]);
    const optOut = { method: "PATCH", token: shy.token, json: { indexable: false } } as const;
    assert.equal((await s.request("/api/v1/accounts/update_credentials", optOut)).status, 200);
    assert.deepEqual(await found(carol, "quokka"), [shown.id]);
    // from: and account_id do not get around it.
    assert.deepEqual(await found(carol, "quokka from:shy"), []);
    const r = await s.request(`/api/v2/search?q=quokka&type=statuses&account_id=${shy.account.id}`, {
      token: carol.token,
    });
    assert.deepEqual(r.body.statuses, []);
  });

  it("the searcher's own posts, even when not indexable, unlisted or private", async () => {
    const pub = await post(shy, { status: "wombat mine public" });
    const unlisted = await post(shy, { status: "wombat mine unlisted", visibility: "unlisted" });
    const priv = await post(shy, { status: "wombat mine private", visibility: "private" });
    assert.deepEqual(await found(shy, "wombat"), [priv.id, unlisted.id, pub.id]);
    assert.deepEqual(await found(shy, "wombat in:library"), [priv.id, unlisted.id, pub.id]);
    assert.deepEqual(await found(carol, "wombat"), []);
  });

  it("posts the searcher favourited, boosted, bookmarked or voted in; undoing it hides them again", async () => {
    const faved = await post(shy, { status: "numbat favourited" });
    const boosted = await post(shy, { status: "numbat boosted" });
    const marked = await post(shy, { status: "numbat bookmarked" });
    const polled = await post(shy, { status: "numbat poll", poll: { options: ["yes", "no"], expires_in: 3600 } });
    assert.deepEqual(await found(carol, "numbat"), []);
    await act(carol, `/api/v1/statuses/${faved.id}/favourite`);
    await act(carol, `/api/v1/statuses/${boosted.id}/reblog`);
    await act(carol, `/api/v1/statuses/${marked.id}/bookmark`);
    await act(carol, `/api/v1/polls/${polled.poll?.id}/votes`, { choices: [0] });
    const all = [polled.id, marked.id, boosted.id, faved.id];
    assert.deepEqual(await found(carol, "numbat"), all);
    assert.deepEqual(await found(carol, "numbat in:library"), all);
    assert.deepEqual(await found(carol, "numbat in:public"), [], "not indexable");
    assert.deepEqual(await found(dave, "numbat"), [], "one searcher's library is not another's");
    await act(carol, `/api/v1/statuses/${faved.id}/unfavourite`);
    await act(carol, `/api/v1/statuses/${boosted.id}/unreblog`);
    await act(carol, `/api/v1/statuses/${marked.id}/unbookmark`);
    assert.deepEqual(await found(carol, "numbat"), [polled.id]);
  });

  it("posts the searcher is mentioned in, public or direct; a direct post is found by nobody else", async () => {
    const mention = await post(shy, { status: "@carol bilby mention" });
    const direct = await post(shy, { status: "@carol bilby direct", visibility: "direct" });
    assert.deepEqual(await found(carol, "bilby"), [direct.id, mention.id]);
    assert.deepEqual(await found(dave, "bilby"), []);
    await s.ctx.repos.accounts.update(shy.account.id, { indexable: true });
    try {
      assert.deepEqual(await found(dave, "bilby"), [mention.id], "indexable: the public one, not the direct one");
    } finally {
      await s.ctx.repos.accounts.update(shy.account.id, { indexable: false });
    }
  });

  it("a private or unlisted post of a followed indexable account only once it is in the searcher's library", async () => {
    await s.follow(carol, open);
    const priv = await post(open, { status: "dunnart followers only", visibility: "private" });
    const unlisted = await post(open, { status: "dunnart unlisted", visibility: "unlisted" });
    assert.deepEqual(await found(carol, "dunnart"), [], "Mastodon indexes public posts only");
    await act(carol, `/api/v1/statuses/${priv.id}/bookmark`);
    await act(carol, `/api/v1/statuses/${unlisted.id}/favourite`);
    assert.deepEqual(await found(carol, "dunnart"), [unlisted.id, priv.id]);
    // Dave does not follow: the private post stays out of reach, in his library or not.
    assert.deepEqual(await found(dave, "dunnart"), []);
  });

  it("blocks hide an author's posts as before, even from the searcher's library", async () => {
    const blocker = await s.createUser("blocker");
    await s.ctx.repos.accounts.update(blocker.account.id, { indexable: true });
    const blocked = await s.createUser("blockedsearcher");
    const pub = await post(blocker, { status: "potoroo public" });
    await act(blocked, `/api/v1/statuses/${pub.id}/favourite`);
    assert.deepEqual(await found(blocked, "potoroo"), [pub.id]);
    assert.deepEqual(await found(dave, "potoroo"), [pub.id]);
    await act(blocker, `/api/v1/accounts/${blocked.account.id}/block`);
    assert.deepEqual(await found(blocked, "potoroo"), [], "blocked by the author");
    await act(dave, `/api/v1/accounts/${blocker.account.id}/block`);
    assert.deepEqual(await found(dave, "potoroo"), [], "the searcher blocks the author");
  });

  it("a remote author's `indexable` comes from its actor, false when the actor does not say", async () => {
    const inbox = `${s.url}/inbox`;
    const deliver = async (actor: FakeActor, n: string) => {
      const note = remote.note(actor, n, { content: `<p>bandicoot from ${actor.name}</p>` });
      const res = await remote.send(inbox, remote.create(actor, note));
      assert.equal(res.status, 202, await res.text());
      const stored = await s.ctx.repos.statuses.getByUri(note.id);
      assert.ok(stored);
      return stored.id;
    };
    const opted = await remote.addActor("opted");
    const silent = await remote.addActor("silent", { indexable: undefined });
    const refused = await remote.addActor("refused", { indexable: false });
    const fromOpted = await deliver(opted, "1");
    await deliver(silent, "2");
    await deliver(refused, "3");
    await s.settle({ delayed: false });
    for (const [actor, expected] of [
      [opted, true],
      [silent, false],
      [refused, false],
    ] as const) {
      assert.equal((await s.ctx.repos.accounts.getByUri(actor.id))?.indexable, expected, actor.name);
    }
    assert.deepEqual(await found(carol, "bandicoot"), [fromOpted]);
  });
});
