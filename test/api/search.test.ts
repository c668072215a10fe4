import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

interface SearchBody {
  accounts: { id: string; acct: string; username: string }[];
  statuses: { id: string; content: string }[];
  hashtags: { name: string; url: string; history: unknown[]; following?: boolean }[];
}

describe("search: /api/v2/search and /api/v1/accounts/search", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let bobby: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let remoteBobId: string;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string; url: string; uri: string };
  };
  const search = async (query: string, token?: string) => {
    const r = await s.request<SearchBody>(`/api/v2/search?${query}`, { token });
    assert.equal(r.status, 200, `${query}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const q = (text: string, extra = "") => `q=${encodeURIComponent(text)}${extra}`;
  const accts = (b: SearchBody) => b.accounts.map((a) => a.acct);
  const statusIds = (b: SearchBody) => b.statuses.map((x) => x.id);

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    bobby = await s.createUser("bobby_tables");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
    const now = new Date().toISOString();
    await s.ctx.repos.accounts.update(bobby.account.id, { display_name: "Robert Tables" });
    await s.ctx.repos.accounts.update(carol.account.id, { display_name: "Ünal Çelik" });
    // Their public posts are searchable by others only because they opted in (search-privacy.test.ts).
    for (const u of [alice, bob]) await s.ctx.repos.accounts.update(u.account.id, { indexable: true });
    // Accounts search must never list.
    await s.createUser("bobunconfirmed", { confirmed: false });
    await s.createUser("bobunapproved", { approved: false });
    const suspended = await s.createUser("bobsuspended");
    await s.ctx.repos.accounts.update(suspended.account.id, { suspended_at: now, suspension_origin: "local" });
    const deleted = await s.createUser("bobdeleted");
    await s.ctx.repos.accounts.update(deleted.account.id, { suspended_at: now, suspension_origin: "deleted" });
    const moved = await s.createUser("bobmoved");
    await s.ctx.repos.accounts.update(moved.account.id, { moved_to_account_id: bob.account.id });
    remoteBobId = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id: remoteBobId,
      username: "bob",
      domain: "remote.example",
      display_name: "Remote Bob",
      uri: "https://remote.example/users/bob",
      url: "https://remote.example/@bob",
      created_at: now,
      updated_at: now,
    });
  });
  after(() => s.close());

  it("accounts: by username and display name, prefix and case-insensitive, exact match first", async () => {
    const anon = await search(q("bob"));
    assert.equal(anon.accounts[0].acct, "bob", "the exact local match comes first");
    assert.deepEqual(new Set(accts(anon)), new Set(["bob", "bobby_tables", "bob@remote.example"]));
    assert.deepEqual((await search(q("@bob"))).accounts[0].acct, "bob");
    assert.deepEqual((await search(q("BOB"))).accounts[0].acct, "bob");
    const remote = await search(q("bob@remote.example"));
    assert.deepEqual(accts(remote), ["bob@remote.example"]);
    assert.deepEqual(accts(await search(q("@bob@remote.ex"))), ["bob@remote.example"]);
    const local = await search(q(`bob@${s.ctx.config.localDomain}`));
    assert.equal(local.accounts[0].acct, "bob");
    assert.deepEqual(accts(await search(q("robert"))), ["bobby_tables"]);
    assert.deepEqual(accts(await search(q("rob tab"))), ["bobby_tables"]);
    assert.deepEqual(accts(await search(q("tables"))), ["bobby_tables"]);
    assert.deepEqual(accts(await search(q("ünal"))), ["carol"]);
    assert.deepEqual(accts(await search(q("ÜNAL çel"))), ["carol"]);
    assert.deepEqual(accts(await search(q("remote"))), ["bob@remote.example"]);
    assert.deepEqual(accts(await search(q("nobodyhere"))), []);
    // Word starts only: "obby" is inside a word.
    assert.deepEqual(accts(await search(q("obby"))), []);
  });

  it("accounts: unconfirmed, unapproved, suspended, deleted and moved accounts are never found", async () => {
    for (const name of ["bobunconfirmed", "bobunapproved", "bobsuspended", "bobdeleted", "bobmoved"]) {
      for (const token of [undefined, alice.token]) {
        const b = await search(q(name), token);
        assert.ok(!accts(b).includes(name), `${name} was found`);
        const v1 = await s.request(`/api/v1/accounts/search?${q(name)}`, { token: alice.token });
        assert.ok(!v1.body.map((a: { acct: string }) => a.acct).includes(name), `${name} found by v1`);
      }
    }
  });

  it("accounts: a short query finds only an exact match anonymously; following; related accounts first", async () => {
    assert.deepEqual(accts(await search(q("bo"))), []);
    assert.deepEqual(accts(await search(q("bo"), alice.token)).sort(), ["bob", "bob@remote.example", "bobby_tables"]);
    await s.follow(alice, bobby);
    const signed = await search(q("bob"), alice.token);
    assert.deepEqual(accts(signed).slice(0, 2), ["bob", "bobby_tables"], "exact first, then followed accounts");
    const following = await search(q("bob", "&following=true"), alice.token);
    assert.deepEqual(accts(following), ["bobby_tables"]);
    assert.deepEqual(accts(await search(q("ali", "&following=true"), alice.token)), ["alice"], "the viewer counts");
    // Anonymous callers cannot follow anyone: the parameter changes nothing.
    assert.equal((await search(q("bob", "&following=true"))).accounts.length, 3);
  });

  it("GET /api/v1/accounts/search: user token with read:accounts, limit, offset, following", async () => {
    assert.equal((await s.request("/api/v1/accounts/search?q=bob")).status, 401);
    const app = await s.appToken("read");
    assert.equal((await s.request("/api/v1/accounts/search?q=bob", { token: app })).status, 422);
    const writeOnly = await s.createUser("writeonly", { scopes: "write" });
    assert.equal((await s.request("/api/v1/accounts/search?q=bob", { token: writeOnly.token })).status, 403);
    const narrow = await s.createUser("narrow", { scopes: "read:accounts" });
    const r = await s.request("/api/v1/accounts/search?q=bob", { token: narrow.token });
    assert.equal(r.status, 200);
    assert.equal(r.body[0].acct, "bob");
    assert.equal(r.body.length, 3);
    const first = await s.request("/api/v1/accounts/search?q=bob&limit=2", { token: alice.token });
    const second = await s.request("/api/v1/accounts/search?q=bob&limit=2&offset=2", { token: alice.token });
    assert.equal(first.body.length, 2);
    assert.equal(second.body.length, 1);
    const all = [...first.body, ...second.body].map((a: { id: string }) => a.id);
    assert.equal(new Set(all).size, 3);
    const following = await s.request("/api/v1/accounts/search?q=bob&following=true", { token: alice.token });
    assert.deepEqual(
      following.body.map((a: { acct: string }) => a.acct),
      ["bobby_tables"],
    );
    assert.deepEqual((await s.request("/api/v1/accounts/search", { token: alice.token })).body, []);
    assert.deepEqual((await s.request("/api/v1/accounts/search?q=", { token: alice.token })).body, []);
    assert.equal((await s.request("/api/v1/accounts/search?q=bob&limit=-1", { token: alice.token })).status, 400);
    assert.equal((await s.request("/api/v1/accounts/search?q=bob&offset=-1", { token: alice.token })).status, 400);
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const viaMasto = await client.v1.accounts.search.list({ q: "robert" });
    assert.deepEqual(
      viaMasto.map((a) => a.acct),
      ["bobby_tables"],
    );
  });

  it("hashtags: by name prefix, shortest first, `#` stripped, Tag entities with history", async () => {
    await post(alice, { status: "#cat #Caturday #catsOfGannet #dog" });
    const anon = await search(q("cat", "&type=hashtags"));
    assert.deepEqual(
      anon.hashtags.map((t) => t.name),
      ["cat", "Caturday", "catsOfGannet"],
    );
    assert.equal(anon.hashtags[0].history.length, 7);
    assert.equal((anon.hashtags[0].history[0] as { uses: string }).uses, "1");
    assert.match(anon.hashtags[0].url, /\/tags\/cat$/);
    assert.equal("following" in anon.hashtags[0], false);
    assert.deepEqual(anon.accounts, []);
    const signed = await search(q("#CAT"), alice.token);
    assert.deepEqual(
      signed.hashtags.map((t) => t.name),
      ["cat", "Caturday", "catsOfGannet"],
    );
    assert.equal(signed.hashtags[0].following, false);
    const exact = await search(q("#cat", "&exclude_unreviewed=true"));
    assert.deepEqual(
      exact.hashtags.map((t) => t.name),
      ["cat"],
    );
    const paged = await search(q("cat", "&type=hashtags&limit=1&offset=1"), alice.token);
    assert.deepEqual(
      paged.hashtags.map((t) => t.name),
      ["Caturday"],
    );
    assert.deepEqual((await search(q("ca_"))).hashtags, [], "`_` is no wildcard");
    assert.deepEqual((await search(q("%"))).hashtags, []);
  });

  it("statuses: full text over text and spoiler text, signed-in callers only, newest first, no boosts", async () => {
    const first = await post(alice, { status: "The quick brown fox jumps" });
    const second = await post(bob, { status: "Another FOX sighting", spoiler_text: "wildlife" });
    const cw = await post(bob, { status: "nothing to see", spoiler_text: "Foxes and badgers" });
    const boost = await s.request(`/api/v1/statuses/${first.id}/reblog`, { method: "POST", token: bob.token });
    assert.equal(boost.status, 200);

    assert.deepEqual(statusIds(await search(q("fox"))), [], "anonymous callers get no statuses");
    const app = await s.appToken("read");
    assert.deepEqual(statusIds(await search(q("fox"), app)), [], "nor do app tokens");
    const found = await search(q("fox"), carol.token);
    assert.deepEqual(statusIds(found), [second.id, first.id]);
    assert.deepEqual(statusIds(await search(q("wildlife"), carol.token)), [second.id]);
    assert.deepEqual(statusIds(await search(q("badgers"), carol.token)), [cw.id]);
    assert.deepEqual(statusIds(await search(q("QUICK fox"), carol.token)), [first.id]);
    assert.deepEqual(statusIds(await search(q('"brown fox"'), carol.token)), [first.id]);
    assert.deepEqual(statusIds(await search(q('"fox brown"'), carol.token)), []);
    assert.deepEqual(statusIds(await search(q("fox -quick"), carol.token)), [second.id]);
    assert.deepEqual(statusIds(await search(q("badgers OR sighting"), carol.token)), [cw.id, second.id]);
    // account_id, type, paging.
    assert.deepEqual(statusIds(await search(q("fox", `&account_id=${alice.account.id}`), carol.token)), [first.id]);
    assert.deepEqual(statusIds(await search(q("fox", "&account_id=notanid"), carol.token)), []);
    const typed = await search(q("fox", "&type=statuses&limit=1"), carol.token);
    assert.deepEqual(statusIds(typed), [second.id]);
    assert.deepEqual(typed.accounts, []);
    assert.deepEqual(statusIds(await search(q("fox", "&type=statuses&limit=1&offset=1"), carol.token)), [first.id]);
    assert.deepEqual(statusIds(await search(q("fox", "&type=statuses&offset=2"), carol.token)), []);
    // Without a type, offset is ignored (as Mastodon).
    assert.deepEqual(statusIds(await search(q("fox", "&offset=1"), carol.token)), [second.id, first.id]);
    assert.deepEqual(statusIds(await search(q("fox", `&max_id=${second.id}`), carol.token)), [first.id]);
    assert.deepEqual(statusIds(await search(q("fox", `&min_id=${first.id}`), carol.token)), [second.id]);
    assert.deepEqual(statusIds(await search(q("fox", "&type=accounts"), carol.token)), []);
    assert.deepEqual(statusIds(await search(q("fox", "&type=nonsense"), carol.token)), []);
  });

  it("statuses: edits and deletions reach the index; a private or direct post is only found by who may see it", async () => {
    const edited = await post(alice, { status: "original wording zebra" });
    assert.deepEqual(statusIds(await search(q("zebra"), carol.token)), [edited.id]);
    const put = await s.request(`/api/v1/statuses/${edited.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "changed wording giraffe" },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(statusIds(await search(q("zebra"), carol.token)), []);
    assert.deepEqual(statusIds(await search(q("giraffe"), carol.token)), [edited.id]);
    const del = await s.request(`/api/v1/statuses/${edited.id}`, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    assert.deepEqual(statusIds(await search(q("giraffe"), carol.token)), []);
    assert.deepEqual(statusIds(await search(q("giraffe"), alice.token)), []);

    const priv = await post(bob, { status: "private pelican plans", visibility: "private" });
    const direct = await post(bob, { status: "@carol direct pelican note", visibility: "direct" });
    const unlisted = await post(bob, { status: "unlisted pelican", visibility: "unlisted" });
    await s.follow(dave, bob);
    // As Mastodon: others find only public posts (and their library), so neither the unlisted post
    // nor the private one dave may read; carol is mentioned in the direct one.
    assert.deepEqual(statusIds(await search(q("pelican"), alice.token)), []);
    assert.deepEqual(statusIds(await search(q("pelican"), carol.token)), [direct.id]);
    assert.deepEqual(statusIds(await search(q("pelican"), dave.token)), []);
    const fav = await s.request(`/api/v1/statuses/${priv.id}/favourite`, { method: "POST", token: dave.token });
    assert.equal(fav.status, 200);
    assert.deepEqual(statusIds(await search(q("pelican"), dave.token)), [priv.id]);
    assert.deepEqual(statusIds(await search(q("pelican"), bob.token)), [unlisted.id, direct.id, priv.id]);
    assert.deepEqual(statusIds(await search(q("pelican"))), []);
    // Nor by URL.
    for (const hidden of [priv, direct]) {
      assert.deepEqual(statusIds(await search(q(hidden.url), alice.token)), []);
      assert.deepEqual(statusIds(await search(q(hidden.uri, "&resolve=true"), alice.token)), []);
    }
    assert.deepEqual(statusIds(await search(q(priv.url), dave.token)), [priv.id]);
  });

  it("statuses: Mastodon's operators from:, has:, is:, language:, before:/after:/during:, in:", async () => {
    const plain = await post(alice, { status: "kiwi plain" });
    const reply = await post(alice, { status: "kiwi reply", in_reply_to_id: plain.id });
    const up = await s.request("/api/v1/media", { method: "POST", token: alice.token, json: { file: PNG } });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const media = await post(alice, { status: "kiwi picture", media_ids: [up.body.id] });
    const sensitive = await post(bob, { status: "kiwi careful", sensitive: true, language: "de" });
    const other = await post(bob, { status: "not the fruit" });
    const find = async (text: string, token = carol.token) => statusIds(await search(q(text), token));
    const all = [sensitive.id, media.id, reply.id, plain.id];
    assert.deepEqual(await find("kiwi"), all);
    assert.deepEqual(await find("kiwi from:alice"), [media.id, reply.id, plain.id]);
    assert.deepEqual(await find("kiwi from:@alice"), [media.id, reply.id, plain.id]);
    assert.deepEqual(await find(`kiwi from:alice@${s.ctx.config.localDomain}`), [media.id, reply.id, plain.id]);
    assert.deepEqual(await find("kiwi from:me", bob.token), [sensitive.id]);
    assert.deepEqual(await find("kiwi -from:alice"), [sensitive.id]);
    assert.deepEqual(await find("kiwi from:nobody"), []);
    assert.deepEqual(await find("kiwi -from:nobody"), all);
    assert.deepEqual(await find("kiwi is:reply"), [reply.id]);
    assert.deepEqual(await find("kiwi -is:reply"), [sensitive.id, media.id, plain.id]);
    assert.deepEqual(await find("kiwi is:sensitive"), [sensitive.id]);
    assert.deepEqual(await find("kiwi has:media"), [media.id]);
    assert.deepEqual(await find("kiwi has:image"), [media.id]);
    assert.deepEqual(await find("kiwi has:video"), []);
    assert.deepEqual(await find("kiwi has:poll"), []);
    assert.deepEqual(await find("kiwi has:unknownthing"), []);
    assert.deepEqual(await find("kiwi language:de"), [sensitive.id]);
    assert.deepEqual(await find("kiwi -language:DE"), [media.id, reply.id, plain.id]);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(await find(`kiwi before:${day(1)}`), all);
    assert.deepEqual(await find(`kiwi before:${day(0)}`), []);
    assert.deepEqual(await find(`kiwi after:${day(-1)}`), all);
    assert.deepEqual(await find(`kiwi after:${day(0)}`), []);
    assert.deepEqual(await find(`kiwi during:${day(0)}`), all);
    assert.deepEqual(await find(`kiwi -during:${day(0)}`), []);
    assert.deepEqual(await find("kiwi before:2024-02-30"), []);
    assert.deepEqual(await find("kiwi before:yesterday"), []);
    // Operators alone choose by themselves.
    const fromBob = await find("from:bob");
    assert.ok(fromBob.includes(other.id) && fromBob.includes(sensitive.id));
    assert.ok(!fromBob.includes(plain.id));
    // in:library: the caller's own posts and those they favourited, bookmarked, boosted or were mentioned in.
    const fav = await s.request(`/api/v1/statuses/${plain.id}/favourite`, { method: "POST", token: dave.token });
    assert.equal(fav.status, 200);
    assert.deepEqual(await find("kiwi in:library", dave.token), [plain.id]);
    assert.deepEqual(await find("kiwi in:library", alice.token), [media.id, reply.id, plain.id]);
    assert.deepEqual(await find("kiwi in:public"), all);
  });

  it("a URL of this server's status or account answers with that record", async () => {
    const pub = await post(alice, { status: "findable by url" });
    assert.deepEqual(statusIds(await search(q(pub.url))), [pub.id]);
    assert.deepEqual(statusIds(await search(q(pub.uri, "&resolve=true"), carol.token)), [pub.id]);
    assert.deepEqual(statusIds(await search(q(pub.url, "&type=accounts"), carol.token)), []);
    assert.deepEqual(accts(await search(q(`${s.ctx.config.baseUrl}/@bob`))), ["bob"]);
    assert.deepEqual(accts(await search(q(`${s.ctx.config.baseUrl}/users/bob`), carol.token)), ["bob"]);
    assert.deepEqual(accts(await search(q(`${s.ctx.config.baseUrl}/@bobsuspended`))), []);
    assert.deepEqual(accts(await search(q(`${s.ctx.config.baseUrl}/@nobody`))), []);
    const elsewhere = await search(q("https://remote.example/@bob"), carol.token);
    assert.deepEqual(elsewhere, { accounts: [], statuses: [], hashtags: [] });
  });

  it("weird input never fails", async () => {
    await post(alice, { status: 'tricky "quotes" and stars* and NEAR(x y) and col:umn' });
    const inputs = [
      '"',
      '""',
      '"unterminated phrase',
      "*",
      "**",
      "-",
      "--x",
      "-fox",
      "OR",
      "fox OR",
      "OR fox",
      "AND",
      "NOT",
      "NEAR(fox quick)",
      "col:umn",
      "text:fox",
      "^fox",
      "fox*",
      "(fox",
      "fox)",
      "'",
      "a'b",
      "\\",
      "%",
      "_",
      "@",
      "@@",
      "#",
      "##",
      "#@",
      "a@b@c",
      "bob@",
      "@bob@",
      "bob@[::1]",
      "日本語のテキスト",
      "🦊",
      "e\u0301",
      "\u0000",
      "\u202e",
      "x".repeat(10_000),
      "fox ".repeat(2000),
      "from:@",
      "from:a@b@c",
      "from:%ZZ",
      "-from:me",
      "before:0000-01-01",
      "during:9999-12-31",
      "after:275760-09-13",
      "language:%",
      "in:nowhere",
      "has:",
      "https://",
      "http://[",
      `${s.ctx.config.baseUrl}/@`,
      `${s.ctx.config.baseUrl}/@bob/99999999999999999999999`,
      `${s.ctx.config.baseUrl}/users/%ZZ`,
    ];
    for (const input of inputs) {
      for (const extra of ["", "&type=statuses", "&type=accounts", "&type=hashtags"]) {
        for (const token of [undefined, alice.token]) {
          const r = await s.request(`/api/v2/search?${q(input, extra)}`, { token });
          // A NUL in any parameter is refused before routing (PostgreSQL text cannot hold one).
          const expected = input.includes("\u0000") ? 400 : 200;
          assert.equal(r.status, expected, `${JSON.stringify(input)}${extra}: ${r.status} ${JSON.stringify(r.body)}`);
        }
      }
      const v1 = await s.request(`/api/v1/accounts/search?${q(input)}`, { token: alice.token });
      assert.equal(v1.status, input.includes("\u0000") ? 400 : 200, `${JSON.stringify(input)} (v1): ${v1.status}`);
    }
    assert.equal((await search(q('"quotes"'), alice.token)).statuses.length, 1);
    assert.equal((await search(q("stars*"), alice.token)).statuses.length, 1);
  });

  it("parameters, scopes and Mastodon's rules for anonymous callers", async () => {
    assert.equal((await s.request("/api/v2/search")).status, 400);
    assert.equal((await s.request("/api/v2/search?q=")).status, 400);
    assert.equal((await s.request("/api/v2/search?q=%20%20")).status, 400);
    const resolve = await s.request("/api/v2/search?q=alice&resolve=true");
    assert.equal(resolve.status, 401);
    assert.equal(
      resolve.body.error,
      "Search queries that resolve remote resources are not supported without authentication",
    );
    const paged = await s.request("/api/v2/search?q=alice&type=accounts&offset=5");
    assert.equal(paged.status, 401);
    assert.equal(paged.body.error, "Search queries pagination is not supported without authentication");
    const app = await s.appToken("read");
    assert.equal((await s.request("/api/v2/search?q=a&resolve=1", { token: app })).status, 401);
    assert.equal((await s.request("/api/v2/search?q=a&offset=1", { token: app })).status, 401);
    assert.equal((await s.request("/api/v2/search?q=a&resolve=1&offset=5", { token: alice.token })).status, 200);
    assert.equal((await s.request("/api/v2/search?q=a&offset=-5", { token: alice.token })).status, 400);
    assert.equal((await s.request("/api/v2/search?q=a&limit=-5", { token: alice.token })).status, 400);
    assert.equal((await s.request("/api/v2/search?q=a&limit=x", { token: alice.token })).status, 400);
    assert.equal((await s.request("/api/v2/search?q=a", { token: "nope" })).status, 401);
    const writeOnly = await s.createUser("writer", { scopes: "write" });
    assert.equal((await s.request("/api/v2/search?q=a", { token: writeOnly.token })).status, 403);
    const narrow = await s.createUser("searcher", { scopes: "read:search" });
    const ok = await s.request<SearchBody>("/api/v2/search?q=fox&type=statuses", { token: narrow.token });
    assert.equal(ok.status, 200);
    assert.ok(ok.body.statuses.length > 0);
    const none = await search("q=bob&limit=0", alice.token);
    assert.deepEqual(none, { accounts: [], statuses: [], hashtags: [] });
    const clamped = await search("q=bob&limit=1000", alice.token);
    assert.ok(clamped.accounts.length <= 40);
    const huge = await search("q=bob&type=accounts&offset=999999999", alice.token);
    assert.deepEqual(huge.accounts, []);
  });

  it("masto client: v2 search", async () => {
    const client = createRestAPIClient({ url: s.url, accessToken: carol.token });
    const result = await client.v2.search.list({ q: "fox", type: "statuses", limit: 5 });
    assert.ok(result.statuses.length > 0);
    assert.ok(result.statuses.every((st) => /fox/i.test(st.content + st.spoilerText)));
    const people = await client.v2.search.list({ q: "robert" });
    assert.deepEqual(
      people.accounts.map((a) => a.acct),
      ["bobby_tables"],
    );
    const tags = await client.v2.search.list({ q: "#caturday", type: "hashtags" });
    assert.deepEqual(
      tags.hashtags.map((t) => t.name),
      ["Caturday"],
    );
  });
});
