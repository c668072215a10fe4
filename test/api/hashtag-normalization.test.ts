import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FakeRemote } from "../helpers/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSse } from "../helpers/streaming.ts";

/** `#café`, `#Café`, `#ｃａｆｅ`, `#cafe` + U+0301 and `#cafe` are one tag, as Mastodon's HashtagNormalizer makes them. */
describe("hashtags: one tag per normalised name", () => {
  let s: TestServer;
  let remote: FakeRemote;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const spellings = ["café", "Café", "ｃａｆｅ", "cafe\u0301", "cafe", "CAFÉ"];
  const posted: string[] = [];
  let both = "";
  let dogOnly = "";

  const post = async (u: TestUser, status: string) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json: { status } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string; tags: { name: string; url: string }[]; content: string };
  };
  const get = async (path: string, token?: string) => {
    const r = await s.request(path, { token });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  const seg = encodeURIComponent;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    remote = await FakeRemote.start();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    for (const [i, spelling] of spellings.entries()) {
      const st = await post(i % 2 === 0 ? alice : bob, `coffee #${spelling} time`);
      assert.equal(st.tags.length, 1, spelling);
      assert.match(st.tags[0].url, /\/tags\/cafe$/, spelling);
      assert.match(st.content, /href="[^"]*\/tags\/cafe"/, spelling);
      posted.unshift(st.id);
    }
    both = (await post(alice, "#Café and #Dog")).id;
    dogOnly = (await post(bob, "#dog alone")).id;
  });
  after(async () => {
    await s?.close();
    await remote?.close();
  });

  it("stores one tag, named by the normalised name and displayed as first written", async () => {
    const rows = await s.ctx.db.selectFrom("tags").select(["name", "display_name"]).orderBy("name").execute();
    assert.deepEqual(
      rows.map((r) => [r.name, r.display_name]),
      [
        ["cafe", "café"],
        ["dog", "Dog"],
      ],
    );
  });

  it("GET /api/v1/tags/:name finds it under every spelling", async () => {
    const expected = await get("/api/v1/tags/cafe");
    assert.notEqual(expected.id, "");
    assert.equal(expected.name, "café");
    assert.equal((expected.history[0] as { uses: string }).uses, String(spellings.length + 1));
    for (const spelling of [...spellings, "#café", "ＣＡＦＥ"]) {
      const tag = await get(`/api/v1/tags/${seg(spelling)}`);
      assert.equal(tag.id, expected.id, spelling);
    }
    const unused = await get(`/api/v1/tags/${seg("Théière")}`);
    assert.equal(unused.id, "");
    assert.equal(unused.name, "Théière");
    assert.match(unused.url, /\/tags\/theiere$/);
    assert.equal((await s.request(`/api/v1/tags/${seg("no-dash")}`)).status, 404);
  });

  it("the tag timeline and any[]/all[]/none[] match every spelling", async () => {
    const all = [both, ...posted];
    for (const spelling of spellings) {
      assert.deepEqual(ids(await get(`/api/v1/timelines/tag/${seg(spelling)}?limit=40`)), all, spelling);
    }
    const q = (tag: string, extra: string) => `/api/v1/timelines/tag/${seg(tag)}?limit=40&${extra}`;
    assert.deepEqual(ids(await get(q("dog", `all[]=${seg("ＣＡＦＥ")}`))), [both]);
    assert.deepEqual(ids(await get(q("dog", `none[]=${seg("cafe\u0301")}`))), [dogOnly]);
    assert.deepEqual(ids(await get(q("DOG", `any[]=${seg("Café")}`))), [dogOnly, both, ...posted]);
    assert.deepEqual(ids(await get(q("Ｃafé", `none[]=${seg("DOG")}`))), posted);
  });

  it("follows, featured tags, an account's tagged posts and hashtag search use the same tag", async () => {
    const followed = await s.request(`/api/v1/tags/${seg("ＣＡＦＥ")}/follow`, { method: "POST", token: carol.token });
    assert.equal(followed.status, 200);
    assert.equal(followed.body.following, true);
    assert.equal((await get(`/api/v1/tags/${seg("cafe\u0301")}`, carol.token)).following, true);
    assert.equal((await get("/api/v1/followed_tags", carol.token)).length, 1);
    // A post with another spelling reaches the follower's home feed.
    const later = await post(alice, "again #CAFE\u0301");
    await s.settle({ delayed: false });
    assert.ok(ids(await get("/api/v1/timelines/home", carol.token)).includes(later.id));
    const unfollowed = await s.request(`/api/v1/tags/${seg("Café")}/unfollow`, { method: "POST", token: carol.token });
    assert.equal(unfollowed.body.following, false);
    assert.deepEqual(await get("/api/v1/followed_tags", carol.token), []);

    const first = await s.request("/api/v1/featured_tags", {
      method: "POST",
      token: alice.token,
      json: { name: "ｃａｆｅ" },
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await s.request("/api/v1/featured_tags", {
      method: "POST",
      token: alice.token,
      json: { name: "#Café" },
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.id, first.body.id);
    const featured = await get("/api/v1/featured_tags", alice.token);
    assert.equal(featured.length, 1);
    assert.equal(featured[0].statuses_count, "5");
    assert.equal((await get(`/api/v1/tags/${seg("CAFÉ")}`, alice.token)).featuring, true);

    const tagged = await get(`/api/v1/accounts/${bob.account.id}/statuses?tagged=${seg("ｃａｆé")}`);
    assert.deepEqual(
      ids(tagged),
      posted.filter((_, i) => i % 2 === 0),
    );

    for (const q of ["#ｃａｆｅ", "CAFÉ", "cafe\u0301"]) {
      const found = await get(`/api/v2/search?q=${seg(q)}&type=hashtags`);
      assert.deepEqual(
        found.hashtags.map((t: { name: string }) => t.name),
        ["café"],
        q,
      );
    }
  });

  it("a hashtag stream asked for under one spelling carries posts written with another", async () => {
    const stream = await openSse(s.url, `/api/v1/streaming/hashtag?tag=${seg("Café")}`, carol.token);
    try {
      const p = await post(bob, "streamed #Cafe\u0301");
      await stream.event("update", (data) => JSON.parse(data).id === p.id);
    } finally {
      stream.close();
    }
  });

  it("a remote post's hashtags join the same tag, whatever their width, case or accents", async () => {
    const actor = await remote.addActor("barista");
    const note = remote.note(actor, "1", {
      content: "<p>#ＣＡＦＥ #café #Latte</p>",
      tag: [
        { type: "Hashtag", href: `${remote.origin}/tags/x`, name: "#ＣＡＦＥ" },
        { type: "Hashtag", href: `${remote.origin}/tags/y`, name: "#cafe\u0301" },
        { type: "Hashtag", href: `${remote.origin}/tags/z`, name: "#Latte" },
      ],
    });
    const res = await remote.send(`${s.url}/inbox`, remote.create(actor, note));
    assert.equal(res.status, 202, await res.text());
    const stored = await s.ctx.repos.statuses.getByUri(note.id);
    assert.ok(stored);
    const json = await get(`/api/v1/statuses/${stored.id}`);
    assert.deepEqual(json.tags.map((t: { url: string }) => t.url.replace(/.*\/tags\//, "")).sort(), ["cafe", "latte"]);
    assert.equal(ids(await get("/api/v1/timelines/tag/cafe?limit=1"))[0], stored.id);
    assert.equal((await s.ctx.db.selectFrom("tags").select("id").execute()).length, 3);
  });
});
