import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("conversations (direct messages)", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const dm = (u: TestUser, status: string, extra: Record<string, unknown> = {}) =>
    post(u, { status, visibility: "direct", ...extra });
  /** Waits until every queued job has run, none having died. */
  const settled = () => s.settle();
  const list = async (u: TestUser, query = "") => {
    await settled();
    const r = await s.request(`/api/v1/conversations${query}`, { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r;
  };
  const convs = async (u: TestUser, query = "") => (await list(u, query)).body as any[];
  const ids = (accounts: any[]) => accounts.map((a) => a.id).sort();
  const fresh = (() => {
    let n = 0;
    return () => s.createUser(`user${++n}`);
  })();

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
  });
  after(() => s.close());

  it("a direct post starts a conversation for its author (read) and each mentioned account (unread)", async () => {
    const st = await dm(alice, "@bob @carol secret plans");
    const [mine] = await convs(alice);
    assert.deepEqual(Object.keys(mine), ["id", "unread", "accounts", "last_status"]);
    assert.equal(mine.unread, false);
    assert.deepEqual(ids(mine.accounts), ids([bob.account, carol.account]), "the other participants");
    assert.equal(mine.last_status.id, st.id);
    assert.equal(mine.last_status.visibility, "direct");
    assert.equal(mine.last_status.favourited, false, "with the viewer's flags");
    for (const u of [bob, carol]) {
      const [theirs] = await convs(u);
      assert.equal(theirs.unread, true);
      assert.equal(theirs.last_status.id, st.id);
      assert.notEqual(theirs.id, mine.id, "each participant has a conversation of their own");
    }
    assert.deepEqual(ids((await convs(bob))[0].accounts), ids([alice.account, carol.account]));
    assert.deepEqual(await convs(dave), [], "not mentioned, not in it");
    // Public, unlisted and private posts start no conversation.
    const me = await fresh();
    for (const visibility of ["public", "unlisted", "private"]) {
      await post(me, { status: `@bob ${visibility}`, visibility });
    }
    assert.deepEqual(await convs(me), []);
  });

  it("a reply joins the conversation; marking read and unread; deleting statuses moves it back, then removes it", async () => {
    const a = await fresh();
    const b = await fresh();
    const first = await dm(a, `@${b.account.username} first`);
    await settled();
    const reply = await dm(b, `@${a.account.username} reply`, { in_reply_to_id: first.id });
    const [forA] = await convs(a);
    assert.equal(forA.last_status.id, reply.id);
    assert.equal(forA.unread, true, "a reply from the other side is unread");
    assert.equal((await convs(a)).length, 1, "same thread, same participants: one conversation");
    const [forB] = await convs(b);
    assert.equal(forB.unread, false, "the author has read their own reply");
    assert.deepEqual(ids(forB.accounts), [a.account.id]);

    const read = await s.request(`/api/v1/conversations/${forA.id}/read`, { method: "POST", token: a.token });
    assert.equal(read.status, 200);
    assert.equal(read.body.id, forA.id);
    assert.equal(read.body.unread, false);
    assert.equal(read.body.last_status.id, reply.id);
    assert.equal((await convs(a))[0].unread, false);
    const unread = await s.request(`/api/v1/conversations/${forA.id}/unread`, { method: "POST", token: a.token });
    assert.equal(unread.body.unread, true);
    // Someone else's conversation is not found.
    for (const action of ["read", "unread"]) {
      const r = await s.request(`/api/v1/conversations/${forA.id}/${action}`, { method: "POST", token: b.token });
      assert.equal(r.status, 404);
    }
    assert.equal(
      (await s.request(`/api/v1/conversations/${forA.id}`, { method: "DELETE", token: b.token })).status,
      404,
    );

    // Deleting the reply moves both conversations back to the first post.
    assert.equal((await s.request(`/api/v1/statuses/${reply.id}`, { method: "DELETE", token: b.token })).status, 200);
    assert.equal((await convs(a))[0].last_status.id, first.id);
    assert.equal((await convs(b))[0].last_status.id, first.id);
    // Deleting the last one removes them.
    assert.equal((await s.request(`/api/v1/statuses/${first.id}`, { method: "DELETE", token: a.token })).status, 200);
    assert.deepEqual(await convs(a), []);
    assert.deepEqual(await convs(b), []);
  });

  it("other participants make another conversation; a note to oneself lists oneself", async () => {
    const a = await fresh();
    const b = await fresh();
    const c = await fresh();
    const one = await dm(a, `@${b.account.username} just us`);
    await dm(a, `@${b.account.username} @${c.account.username} all three`, { in_reply_to_id: one.id });
    assert.equal((await convs(a)).length, 2, "participants are part of a conversation's identity");
    assert.equal((await convs(b)).length, 2);
    assert.equal((await convs(c)).length, 1);
    const me = await fresh();
    const note = await dm(me, "note to self");
    const [self] = await convs(me);
    assert.deepEqual(ids(self.accounts), [me.account.id]);
    assert.equal(self.last_status.id, note.id);
    assert.equal(self.unread, false);
  });

  it("a muted thread's new messages leave the recipient's conversation as it was", async () => {
    const a = await fresh();
    const b = await fresh();
    const first = await dm(a, `@${b.account.username} before the mute`);
    await settled();
    const mute = await s.request(`/api/v1/statuses/${first.id}/mute`, { method: "POST", token: b.token });
    assert.equal(mute.status, 200);
    await s.request(`/api/v1/conversations/${(await convs(b))[0].id}/read`, { method: "POST", token: b.token });
    const later = await dm(a, `@${b.account.username} after the mute`, { in_reply_to_id: first.id });
    const [forB] = await convs(b);
    assert.equal(forB.last_status.id, first.id);
    assert.equal(forB.unread, false);
    assert.equal((await convs(a))[0].last_status.id, later.id, "the author's own is updated");
  });

  it("deleting a conversation removes it for its owner only", async () => {
    const a = await fresh();
    const b = await fresh();
    await dm(a, `@${b.account.username} delete me`);
    const [forA] = await convs(a);
    const r = await s.request(`/api/v1/conversations/${forA.id}`, { method: "DELETE", token: a.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    assert.deepEqual(await convs(a), []);
    assert.equal((await convs(b)).length, 1);
    assert.equal(
      (await s.request(`/api/v1/conversations/${forA.id}`, { method: "DELETE", token: a.token })).status,
      404,
    );
    // A new message in the thread starts it again.
    await dm(b, `@${a.account.username} still there?`);
    assert.equal((await convs(a)).length, 1);
  });

  it("pages by last status with Link headers (also when empty)", async () => {
    const a = await fresh();
    const peers = [];
    for (let i = 0; i < 4; i++) peers.push(await fresh());
    const posted = [];
    for (const p of peers) posted.push((await dm(a, `@${p.account.username} hello`)).id);
    const all = await convs(a);
    assert.deepEqual(
      all.map((c) => c.last_status.id),
      [...posted].reverse(),
      "newest last status first",
    );
    const first = await list(a, "?limit=2");
    assert.equal(first.body.length, 2);
    const link = first.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${posted[2]}.*rel="next"`), "the cursor is the last status id");
    assert.match(link, new RegExp(`min_id=${posted[3]}.*rel="prev"`));
    const next = await list(a, `?limit=2&max_id=${posted[2]}`);
    assert.deepEqual(
      next.body.map((c: any) => c.last_status.id),
      [posted[1], posted[0]],
    );
    const forward = await list(a, `?limit=2&min_id=${posted[0]}`);
    assert.deepEqual(
      forward.body.map((c: any) => c.last_status.id),
      [posted[2], posted[1]],
    );
    const since = await list(a, `?limit=1&since_id=${posted[0]}`);
    assert.deepEqual(
      since.body.map((c: any) => c.last_status.id),
      [posted[3]],
    );
    const empty = await list(a, `?min_id=${posted[3]}`);
    assert.deepEqual(empty.body, []);
    assert.match(empty.headers.get("link") ?? "", /rel="prev"/);
    assert.equal((await list(a, "?limit=100")).body.length, 4, "limit clamped to 40");
    for (const q of ["?limit=-1", "?limit=x"]) {
      assert.equal((await s.request(`/api/v1/conversations${q}`, { token: a.token })).status, 400);
    }
    assert.equal((await s.request("/api/v1/conversations/abc/read", { method: "POST", token: a.token })).status, 404);
  });

  it("a direct message never reaches anyone it does not mention", async () => {
    const st = await dm(alice, "@bob only bob");
    await settled();
    for (const u of [carol, dave]) {
      assert.ok(!(await convs(u)).some((c) => c.last_status?.id === st.id));
      assert.equal((await s.request(`/api/v1/statuses/${st.id}`, { token: u.token })).status, 404);
    }
    const [forBob] = (await convs(bob)).filter((c) => c.last_status.id === st.id);
    for (const u of [carol, dave]) {
      for (const action of ["read", "unread"]) {
        const r = await s.request(`/api/v1/conversations/${forBob.id}/${action}`, { method: "POST", token: u.token });
        assert.equal(r.status, 404);
      }
    }
  });

  it("checks tokens and scopes", async () => {
    const reader = await s.createUser("reader", { scopes: "read:statuses" });
    const notes = await s.createUser("notes", { scopes: "read:notifications write:statuses" });
    const writer = await s.createUser("writer", { scopes: "write:conversations" });
    const app = await s.appToken("read write");
    assert.equal((await s.request("/api/v1/conversations")).status, 401);
    assert.equal((await s.request("/api/v1/conversations", { token: notes.token })).status, 403);
    assert.equal((await s.request("/api/v1/conversations", { token: app })).status, 422);
    assert.equal((await s.request("/api/v1/conversations", { token: reader.token })).status, 200);
    for (const [method, path] of [
      ["POST", "/api/v1/conversations/1/read"],
      ["POST", "/api/v1/conversations/1/unread"],
      ["DELETE", "/api/v1/conversations/1"],
    ]) {
      assert.equal((await s.request(path, { method })).status, 401, path);
      assert.equal((await s.request(path, { method, token: notes.token })).status, 403, path);
      assert.equal((await s.request(path, { method, token: reader.token })).status, 403, path);
      assert.equal((await s.request(path, { method, token: app })).status, 422, path);
      assert.equal((await s.request(path, { method, token: writer.token })).status, 404, path);
    }
  });

  it("works through masto.js", async () => {
    const a = await fresh();
    const b = await fresh();
    await dm(b, `@${a.account.username} via masto`);
    await settled();
    const client = createRestAPIClient({ url: s.url, accessToken: a.token });
    const [c] = await client.v1.conversations.list();
    assert.equal(c.unread, true);
    assert.equal(c.accounts[0].id, b.account.id);
    assert.match(c.lastStatus?.content ?? "", /via masto<\/p>$/);
    const read = await client.v1.conversations.$select(c.id).read();
    assert.equal(read.unread, false);
    await client.v1.conversations.$select(c.id).remove();
    assert.deepEqual(await client.v1.conversations.list(), []);
  });
});
