import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("statuses: post, read, edit, delete, threads", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const post = (u: TestUser, json: Record<string, unknown>, headers?: Record<string, string>) =>
    s.request("/api/v1/statuses", { method: "POST", token: u.token, json, headers });
  const count = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom("statuses")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    s = await startTestServer({ LOCAL_DOMAIN: "example.social", LOCAL_HTTPS: "false" });
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    // bob follows alice; carol does not.
    await s.follow(bob, alice);
  });
  after(() => s.close());

  it("posts with HTML, links, mentions and hashtags", async () => {
    const r = await post(alice, {
      status: "Hello @bob and @nobody!\nSee https://example.com/a/very/long/path/that/goes/on/and/on #Gannet\n\nBye",
      language: "fr",
    });
    assert.equal(r.status, 200);
    const b = r.body;
    assert.match(b.id, /^\d+$/);
    assert.equal(b.visibility, "public");
    assert.equal(b.language, "fr");
    assert.equal(b.sensitive, false);
    assert.equal(b.account.id, alice.account.id);
    assert.match(
      b.content,
      /^<p>Hello <span class="h-card" translate="no"><a href="[^"]+\/@bob" class="u-url mention">@<span>bob<\/span><\/a><\/span> and @nobody!<br \/>See <a href="https:\/\/example.com\/a\/very/,
    );
    assert.match(
      b.content,
      /<a href="[^"]+\/tags\/gannet" class="mention hashtag" rel="tag">#<span>Gannet<\/span><\/a><\/p><p>Bye<\/p>$/,
    );
    assert.deepEqual(
      b.mentions.map((m: { id: string; acct: string }) => [m.id, m.acct]),
      [[bob.account.id, "bob"]],
    );
    assert.equal(b.tags[0].name, "Gannet");
    assert.match(b.tags[0].url, /\/tags\/gannet$/);
    assert.deepEqual([b.media_attachments, b.emojis, b.card, b.poll, b.reblog], [[], [], null, null, null]);
    assert.equal(b.favourited, false);
    assert.equal(b.reblogged, false);
    assert.equal(b.bookmarked, false);
    assert.equal(b.muted, false);
    assert.equal(b.pinned, false);
    assert.equal(typeof b.application.name, "string");
    assert.equal(b.text, undefined);
    assert.match(b.uri, new RegExp(`/users/alice/statuses/${b.id}$`));
    assert.match(b.url, new RegExp(`/@alice/${b.id}$`));
    const anon = await s.request(`/api/v1/statuses/${b.id}`);
    assert.equal(anon.status, 200);
    assert.equal(anon.body.favourited, undefined);
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    assert.equal(me.body.statuses_count, 1);
    assert.notEqual(me.body.last_status_at, null);
  });

  it("links known remote accounts and local ones written with the local domain", async () => {
    const now = new Date().toISOString();
    const remoteId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteId,
      username: "Remote",
      domain: "remote.example",
      uri: "https://remote.example/users/Remote",
      url: "https://remote.example/@Remote",
      created_at: now,
      updated_at: now,
    });
    const local = s.ctx.config.localDomain;
    const r = await post(alice, { status: `hi @remote@remote.example @bob@${local} @ghost@else.example` });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.mentions.map((m: { id: string; acct: string; url: string }) => [m.id, m.acct, m.url]),
      [
        [remoteId, "Remote@remote.example", "https://remote.example/@Remote"],
        [bob.account.id, "bob", bob.account.url],
      ],
    );
    assert.match(
      r.body.content,
      /<a href="https:\/\/remote.example\/@Remote" class="u-url mention">@<span>Remote<\/span><\/a>/,
    );
    assert.match(r.body.content, / @ghost@else.example<\/p>$/);
  });

  it("checks scopes and tokens", async () => {
    assert.equal((await s.request("/api/v1/statuses", { method: "POST", json: { status: "x" } })).status, 401);
    const readOnly = await s.createUser("reader", { scopes: "read" });
    assert.equal((await post(readOnly, { status: "x" })).status, 403);
    const app = await s.appToken("write");
    assert.equal(
      (await s.request("/api/v1/statuses", { method: "POST", token: app, json: { status: "x" } })).status,
      422,
    );
    const granular = await s.createUser("granular", { scopes: "write:statuses" });
    assert.equal((await post(granular, { status: "fine" })).status, 200);
    assert.equal((await s.request("/api/v1/statuses/1", { token: "bad" })).status, 401);
  });

  it("rejects bad input and stores nothing", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, number][] = [
      [{ status: "x".repeat(501) }, 422],
      [{ status: "x".repeat(480), spoiler_text: "y".repeat(21) }, 422],
      [{ status: "" }, 422],
      [{}, 422],
      [{ status: { a: 1 } }, 422],
      [{ status: "hi", visibility: "everyone" }, 422],
      [{ status: "hi", sensitive: "maybe" }, 422],
      [{ status: "hi", in_reply_to_id: "abc" }, 404],
      [{ status: "hi", in_reply_to_id: "123456789" }, 404],
      [{ status: "hi", media_ids: ["1", "2", "3", "4", "5"] }, 422],
      [{ status: "hi", poll: { options: ["a"], expires_in: 600 } }, 422],
      [{ status: "hi", scheduled_at: new Date(Date.now() + 60_000).toISOString() }, 422],
    ];
    for (const [json, status] of cases) {
      const r = await post(alice, json);
      assert.equal(r.status, status, JSON.stringify(json));
      assert.equal(typeof r.body.error, "string");
    }
    const missing = await post(alice, { status: "hi", in_reply_to_id: "123456789" });
    assert.equal(missing.body.error, "The post you are trying to reply to does not appear to exist.");
    assert.equal(await count(), before);
    // URLs count 23 characters.
    const long = await post(alice, { status: `${"x".repeat(470)} https://example.com/${"a".repeat(100)}` });
    assert.equal(long.status, 200);
  });

  it("accepts form bodies and uses the default visibility", async () => {
    await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: carol.token,
      form: { "source[privacy]": "unlisted" },
    });
    const r = await s.request("/api/v1/statuses", {
      method: "POST",
      token: carol.token,
      form: { status: "form post", sensitive: "true", spoiler_text: "cw" },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.visibility, "unlisted");
    assert.equal(r.body.sensitive, true);
    assert.equal(r.body.spoiler_text, "cw");
  });

  it("Idempotency-Key returns the first status", async () => {
    const before = await count();
    const a = await post(alice, { status: "once" }, { "Idempotency-Key": "k1" });
    const b = await post(alice, { status: "once" }, { "Idempotency-Key": "k1" });
    assert.equal(a.body.id, b.body.id);
    assert.equal(await count(), before + 1);
    const other = await post(bob, { status: "once" }, { "Idempotency-Key": "k1" });
    assert.notEqual(other.body.id, a.body.id);
  });

  it("enforces visibility of private and direct posts", async () => {
    const priv = (await post(alice, { status: "followers only", visibility: "private" })).body;
    const dm = (await post(alice, { status: "@carol secret", visibility: "direct" })).body;
    assert.equal((await s.request(`/api/v1/statuses/${priv.id}`)).status, 404);
    assert.equal((await s.request(`/api/v1/statuses/${priv.id}`, { token: carol.token })).status, 404);
    assert.equal((await s.request(`/api/v1/statuses/${priv.id}`, { token: bob.token })).status, 200);
    assert.equal((await s.request(`/api/v1/statuses/${priv.id}`, { token: alice.token })).status, 200);
    assert.equal((await s.request(`/api/v1/statuses/${dm.id}`, { token: bob.token })).status, 404);
    assert.equal((await s.request(`/api/v1/statuses/${dm.id}`, { token: carol.token })).status, 200);
    const many = await s.request(`/api/v1/statuses?id[]=${priv.id}&id[]=${dm.id}&id[]=abc`, { token: carol.token });
    assert.deepEqual(
      many.body.map((x: { id: string }) => x.id),
      [dm.id],
    );
    // A reply to a post the replier cannot see is refused.
    const reply = await post(carol, { status: "sneaky", in_reply_to_id: priv.id });
    assert.equal(reply.status, 404);
  });

  it("edits with history and source", async () => {
    const st = (await post(alice, { status: "first #one" })).body;
    const h0 = await s.request(`/api/v1/statuses/${st.id}/history`);
    assert.equal(h0.body.length, 1);
    const e = await s.request(`/api/v1/statuses/${st.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "second #two", spoiler_text: "cw" },
    });
    assert.equal(e.status, 200);
    assert.match(e.body.content, /second/);
    assert.notEqual(e.body.edited_at, null);
    assert.deepEqual(
      e.body.tags.map((t: { name: string }) => t.name),
      ["two"],
    );
    const h = await s.request(`/api/v1/statuses/${st.id}/history`);
    assert.equal(h.body.length, 2);
    assert.match(h.body[0].content, /first/);
    assert.match(h.body[1].content, /second/);
    assert.equal(h.body[1].spoiler_text, "cw");
    assert.equal(h.body[1].account.id, alice.account.id);
    const src = await s.request(`/api/v1/statuses/${st.id}/source`, { token: bob.token });
    assert.deepEqual(src.body, { id: st.id, text: "second #two", spoiler_text: "cw" });
    assert.equal((await s.request(`/api/v1/statuses/${st.id}/source`)).status, 401);
    const notMine = await s.request(`/api/v1/statuses/${st.id}`, {
      method: "PUT",
      token: bob.token,
      json: { status: "x" },
    });
    assert.equal(notMine.status, 404);
    const tooLong = await s.request(`/api/v1/statuses/${st.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "x".repeat(600) },
    });
    assert.equal(tooLong.status, 422);
    assert.equal((await s.request(`/api/v1/statuses/${st.id}/history`)).body.length, 2);
  });

  it("deletes with text for redraft, 410 afterwards, boosts removed", async () => {
    const st = (await post(alice, { status: "to delete" })).body;
    const boost = await s.request(`/api/v1/statuses/${st.id}/reblog`, { method: "POST", token: bob.token });
    assert.equal(boost.status, 200);
    const countBefore = (await s.request("/api/v1/accounts/verify_credentials", { token: alice.token })).body
      .statuses_count;
    assert.equal((await s.request(`/api/v1/statuses/${st.id}`, { method: "DELETE", token: bob.token })).status, 404);
    const d = await s.request(`/api/v1/statuses/${st.id}`, { method: "DELETE", token: alice.token });
    assert.equal(d.status, 200);
    assert.equal(d.body.text, "to delete");
    assert.equal((await s.request(`/api/v1/statuses/${st.id}`)).status, 410);
    assert.equal((await s.request(`/api/v1/statuses/${boost.body.id}`)).status, 410);
    assert.equal((await s.request(`/api/v1/statuses/${st.id}`, { method: "DELETE", token: alice.token })).status, 410);
    const countAfter = (await s.request("/api/v1/accounts/verify_credentials", { token: alice.token })).body
      .statuses_count;
    assert.equal(countAfter, countBefore - 1);
    const reply = await post(bob, { status: "late reply", in_reply_to_id: st.id });
    assert.equal(reply.status, 404);
  });

  it("context shows only visible ancestors and descendants", async () => {
    const root = (await post(alice, { status: "root" })).body;
    const r1 = (await post(bob, { status: "reply", in_reply_to_id: root.id })).body;
    const r2 = (await post(alice, { status: "private reply", in_reply_to_id: r1.id, visibility: "private" })).body;
    const r3 = (await post(carol, { status: "second reply", in_reply_to_id: root.id })).body;
    const ctxAnon = await s.request(`/api/v1/statuses/${r1.id}/context`);
    assert.deepEqual(
      ctxAnon.body.ancestors.map((x: { id: string }) => x.id),
      [root.id],
    );
    assert.deepEqual(ctxAnon.body.descendants, []);
    const full = await s.request(`/api/v1/statuses/${root.id}/context`, { token: bob.token });
    assert.deepEqual(
      full.body.descendants.map((x: { id: string }) => x.id),
      [r1.id, r2.id, r3.id],
    );
    const carolView = await s.request(`/api/v1/statuses/${root.id}/context`, { token: carol.token });
    assert.deepEqual(
      carolView.body.descendants.map((x: { id: string }) => x.id),
      [r1.id, r3.id],
    );
    assert.equal((await s.request(`/api/v1/statuses/${r2.id}/context`, { token: carol.token })).status, 404);
    const rootNow = (await s.request(`/api/v1/statuses/${root.id}`)).body;
    assert.equal(rootNow.replies_count, 2);
    assert.equal(r1.in_reply_to_account_id, alice.account.id);
  });
});
