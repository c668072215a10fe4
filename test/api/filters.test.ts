import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

interface Keyword {
  id: string;
  keyword: string;
  whole_word: boolean;
}
interface Filter {
  id: string;
  title: string;
  context: string[];
  expires_at: string | null;
  filter_action: string;
  keywords: Keyword[];
  statuses: { id: string; status_id: string }[];
}

describe("filters: v2 CRUD, keywords, statuses, and the legacy v1 API", () => {
  let s: TestServer;
  let n = 0;
  const user = (name: string, scopes?: string) => s.createUser(`${name}${++n}`, scopes ? { scopes } : {});
  const req = (u: TestUser | string | undefined, path: string, method = "GET", json?: unknown) =>
    s.request(path, { method, token: typeof u === "string" ? u : u?.token, json });
  const ok = async <T = any>(u: TestUser, path: string, method = "GET", json?: unknown): Promise<T> => {
    const r = await req(u, path, method, json);
    assert.equal(r.status, 200, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const create = (u: TestUser, json: Record<string, unknown>) => ok<Filter>(u, "/api/v2/filters", "POST", json);
  const rows = async (u: TestUser) => {
    const filters = await s.ctx.db.selectFrom("filters").selectAll().where("account_id", "=", u.account.id).execute();
    const ids = filters.map((f) => f.id);
    const keywords =
      ids.length === 0
        ? []
        : await s.ctx.db.selectFrom("filter_keywords").selectAll().where("filter_id", "in", ids).execute();
    return { filters: filters.length, keywords: keywords.map((k) => k.keyword).sort() };
  };
  const post = async (u: TestUser, json: Record<string, unknown>) =>
    ok<{ id: string }>(u, "/api/v1/statuses", "POST", json);

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("creates a filter with keywords in one request and lists, shows and deletes it", async () => {
    const alice = await user("alice");
    const f = await create(alice, {
      title: "Spoilers",
      context: ["home", "public"],
      filter_action: "hide",
      keywords_attributes: [{ keyword: "dune" }, { keyword: "Arrakis", whole_word: false }],
    });
    assert.equal(f.title, "Spoilers");
    assert.deepEqual(f.context, ["home", "public"]);
    assert.equal(f.filter_action, "hide");
    assert.equal(f.expires_at, null);
    assert.deepEqual(
      f.keywords.map((k) => [k.keyword, k.whole_word]),
      [
        ["dune", true],
        ["Arrakis", false],
      ],
    );
    assert.deepEqual(f.statuses, []);
    assert.equal(typeof f.id, "string");

    // Defaults: warn, and a form-encoded body with Rails-style nested keys.
    const r = await s.request("/api/v2/filters", {
      method: "POST",
      token: alice.token,
      form: {
        title: "Politics",
        "context[]": ["thread", "notifications"],
        "keywords_attributes[0][keyword]": "election",
        "keywords_attributes[0][whole_word]": "false",
        "keywords_attributes[1][keyword]": "",
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.filter_action, "warn");
    assert.deepEqual(r.body.context, ["thread", "notifications"]);
    assert.deepEqual(
      r.body.keywords.map((k: Keyword) => [k.keyword, k.whole_word]),
      [["election", false]],
    );

    const list = await ok<Filter[]>(alice, "/api/v2/filters");
    assert.deepEqual(
      list.map((x) => x.id),
      [f.id, r.body.id],
    );
    assert.deepEqual(await ok(alice, `/api/v2/filters/${f.id}`), f);

    assert.deepEqual(await ok(alice, `/api/v2/filters/${f.id}`, "DELETE"), {});
    assert.equal((await req(alice, `/api/v2/filters/${f.id}`)).status, 404);
    assert.equal((await req(alice, `/api/v2/filters/${f.id}`, "DELETE")).status, 404);
    assert.deepEqual(await rows(alice), { filters: 1, keywords: ["election"] });
  });

  it("creates, edits and removes keywords in the same update", async () => {
    const alice = await user("alice");
    const f = await create(alice, {
      title: "Food",
      context: ["home"],
      keywords_attributes: [{ keyword: "pizza" }, { keyword: "pasta" }, { keyword: "sushi" }],
    });
    const [pizza, pasta, sushi] = f.keywords;
    const updated = await ok<Filter>(alice, `/api/v2/filters/${f.id}`, "PUT", {
      title: "Food!",
      context: ["home", "account"],
      filter_action: "blur",
      keywords_attributes: [
        { id: pizza.id, keyword: "Pizza", whole_word: false },
        { id: pasta.id, _destroy: true },
        { keyword: "ramen" },
        { _destroy: "1" },
      ],
    });
    assert.equal(updated.title, "Food!");
    assert.deepEqual(updated.context, ["home", "account"]);
    assert.equal(updated.filter_action, "blur");
    assert.deepEqual(
      updated.keywords.map((k) => [k.keyword, k.whole_word]),
      [
        ["Pizza", false],
        ["sushi", true],
        ["ramen", true],
      ],
    );
    assert.equal(updated.keywords[0].id, pizza.id);
    assert.equal(updated.keywords[1].id, sushi.id);

    // Fields not given stay as they were.
    const same = await ok<Filter>(alice, `/api/v2/filters/${f.id}`, "PUT", { title: "Food again" });
    assert.deepEqual(same.context, ["home", "account"]);
    assert.equal(same.filter_action, "blur");
    assert.equal(same.keywords.length, 3);
  });

  it("bad input is a 422 (or 404 for a keyword id of another filter) and changes nothing, even partly", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const bad: Record<string, unknown>[] = [
      { context: ["home"] },
      { title: "", context: ["home"] },
      { title: "x" },
      { title: "x", context: [] },
      { title: "x", context: ["home", "everywhere"] },
      { title: "x", context: ["home"], filter_action: "explode" },
      { title: "x", context: ["home"], expires_in: "soon" },
      { title: "x", context: ["home"], expires_in: -5 },
      { title: "x".repeat(257), context: ["home"] },
      { title: "x", context: ["home"], keywords_attributes: [{ keyword: "ok" }, { keyword: "k".repeat(513) }] },
      { title: "x", context: ["home"], keywords_attributes: [{ keyword: "ok" }, { whole_word: true }] },
      { title: "x", context: ["home"], keywords_attributes: [{ keyword: "ok", whole_word: "maybe" }] },
    ];
    for (const json of bad) {
      const r = await req(alice, "/api/v2/filters", "POST", json);
      assert.equal(r.status, 422, `${JSON.stringify(json)}: ${r.status} ${JSON.stringify(r.body)}`);
      assert.match(r.body.error, /^Validation failed: /);
    }
    assert.deepEqual(await rows(alice), { filters: 0, keywords: [] });

    const f = await create(alice, { title: "Keep", context: ["home"], keywords_attributes: [{ keyword: "one" }] });
    const other = await create(bob, { title: "Bob's", context: ["home"], keywords_attributes: [{ keyword: "bob" }] });
    const before = await ok(alice, `/api/v2/filters/${f.id}`);
    // One good change next to one bad one: nothing at all changes.
    for (const json of [
      { title: "Changed", keywords_attributes: [{ keyword: "two" }, { id: f.keywords[0].id, keyword: "" }] },
      { title: "Changed", keywords_attributes: [{ keyword: "two" }, { keyword: "   ", whole_word: true }] },
      { title: "Changed", context: ["nowhere"], keywords_attributes: [{ keyword: "two" }] },
      { title: "Changed", filter_action: "nuke" },
    ]) {
      const r = await req(alice, `/api/v2/filters/${f.id}`, "PUT", json);
      assert.equal(r.status, 422, `${JSON.stringify(json)}: ${JSON.stringify(r.body)}`);
    }
    const foreign = await req(alice, `/api/v2/filters/${f.id}`, "PUT", {
      title: "Changed",
      keywords_attributes: [{ keyword: "two" }, { id: other.keywords[0].id, keyword: "stolen" }],
    });
    assert.equal(foreign.status, 404);
    assert.deepEqual(await ok(alice, `/api/v2/filters/${f.id}`), before);
    assert.deepEqual(await rows(alice), { filters: 1, keywords: ["one"] });
    assert.deepEqual(await rows(bob), { filters: 1, keywords: ["bob"] });
  });

  it("only the owner reaches a filter, its keywords and its statuses", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const p = await post(alice, { status: "mine" });
    const f = await create(alice, { title: "Mine", context: ["home"], keywords_attributes: [{ keyword: "secret" }] });
    const fs = await ok(alice, `/api/v2/filters/${f.id}/statuses`, "POST", { status_id: p.id });
    const k = f.keywords[0].id;
    for (const [method, path] of [
      ["GET", `/api/v2/filters/${f.id}`],
      ["PUT", `/api/v2/filters/${f.id}`],
      ["DELETE", `/api/v2/filters/${f.id}`],
      ["GET", `/api/v2/filters/${f.id}/keywords`],
      ["POST", `/api/v2/filters/${f.id}/keywords`],
      ["GET", `/api/v2/filters/keywords/${k}`],
      ["PUT", `/api/v2/filters/keywords/${k}`],
      ["DELETE", `/api/v2/filters/keywords/${k}`],
      ["GET", `/api/v1/filters/keywords/${k}`],
      ["DELETE", `/api/v1/filters/keywords/${k}`],
      ["GET", `/api/v2/filters/${f.id}/statuses`],
      ["POST", `/api/v2/filters/${f.id}/statuses`],
      ["GET", `/api/v2/filters/statuses/${fs.id}`],
      ["DELETE", `/api/v2/filters/statuses/${fs.id}`],
      ["GET", `/api/v1/filters/${k}`],
      ["PUT", `/api/v1/filters/${k}`],
      ["DELETE", `/api/v1/filters/${k}`],
    ]) {
      const r = await req(bob, path, method, method === "GET" ? undefined : { keyword: "x", status_id: p.id });
      assert.equal(r.status, 404, `${method} ${path}: ${r.status}`);
    }
    assert.deepEqual(await ok(bob, "/api/v2/filters"), []);
    assert.deepEqual(await ok(bob, "/api/v1/filters"), []);
    assert.equal((await ok<Filter>(alice, `/api/v2/filters/${f.id}`)).keywords.length, 1);
  });

  it("keywords: listed, added (also by POST with an id), shown, edited and removed at the v2 and v1 paths", async () => {
    const alice = await user("alice");
    const f = await create(alice, { title: "Words", context: ["public"] });
    assert.deepEqual(await ok(alice, `/api/v2/filters/${f.id}/keywords`), []);
    const a = await ok<Keyword>(alice, `/api/v2/filters/${f.id}/keywords`, "POST", { keyword: "alpha" });
    assert.deepEqual(Object.keys(a).sort(), ["id", "keyword", "whole_word"]);
    assert.equal(a.whole_word, true);
    const b = await ok<Keyword>(alice, `/api/v2/filters/${f.id}/keywords/${a.id}`, "POST", {
      keyword: "beta",
      whole_word: false,
    });
    assert.notEqual(b.id, a.id);
    assert.equal(b.whole_word, false);
    assert.deepEqual(
      (await ok<Keyword[]>(alice, `/api/v2/filters/${f.id}/keywords`)).map((k) => k.keyword),
      ["alpha", "beta"],
    );
    for (const base of ["/api/v2/filters/keywords", "/api/v1/filters/keywords"]) {
      assert.deepEqual(await ok(alice, `${base}/${a.id}`), a);
    }
    const edited = await ok<Keyword>(alice, `/api/v2/filters/keywords/${a.id}`, "PUT", { keyword: "Alpha" });
    assert.deepEqual(edited, { id: a.id, keyword: "Alpha", whole_word: true });
    const edited1 = await ok<Keyword>(alice, `/api/v1/filters/keywords/${a.id}`, "PUT", { whole_word: false });
    assert.deepEqual(edited1, { id: a.id, keyword: "Alpha", whole_word: false });

    for (const [path, method, json] of [
      [`/api/v2/filters/${f.id}/keywords`, "POST", {}],
      [`/api/v2/filters/${f.id}/keywords`, "POST", { keyword: " " }],
      [`/api/v2/filters/${f.id}/keywords`, "POST", { keyword: "y".repeat(513) }],
      [`/api/v2/filters/keywords/${a.id}`, "PUT", { keyword: "" }],
      [`/api/v1/filters/keywords/${a.id}`, "PUT", { whole_word: "perhaps" }],
    ] as const) {
      const r = await req(alice, path, method, json);
      assert.equal(r.status, 422, `${method} ${path} ${JSON.stringify(json)}: ${r.status}`);
    }
    assert.deepEqual(await ok(alice, `/api/v2/filters/keywords/${a.id}`), edited1);

    assert.deepEqual(await ok(alice, `/api/v2/filters/keywords/${a.id}`, "DELETE"), {});
    assert.deepEqual(await ok(alice, `/api/v1/filters/keywords/${b.id}`, "DELETE"), {});
    assert.equal((await req(alice, `/api/v2/filters/keywords/${a.id}`)).status, 404);
    assert.equal((await req(alice, `/api/v1/filters/keywords/${b.id}`)).status, 404);
    // The filter itself stays (v2 keeps empty filters).
    assert.deepEqual((await ok<Filter>(alice, `/api/v2/filters/${f.id}`)).keywords, []);
    assert.equal((await req(alice, "/api/v2/filters/999/keywords")).status, 404);
  });

  it("statuses: added, listed, shown and removed; a status the owner cannot see, an unknown or repeated one is a 422", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const mine = await post(alice, { status: "hello" });
    const bobs = await post(bob, { status: "public words" });
    const hidden = await post(bob, { status: "followers only", visibility: "private" });
    const f = await create(alice, { title: "Posts", context: ["home"] });
    const a = await ok(alice, `/api/v2/filters/${f.id}/statuses`, "POST", { status_id: mine.id });
    assert.deepEqual(Object.keys(a).sort(), ["id", "status_id"]);
    assert.equal(a.status_id, mine.id);
    const b = await ok(alice, `/api/v2/filters/${f.id}/statuses`, "POST", { status_id: bobs.id });
    assert.deepEqual(await ok(alice, `/api/v2/filters/${f.id}/statuses`), [a, b]);
    assert.deepEqual(await ok(alice, `/api/v2/filters/statuses/${a.id}`), a);
    assert.deepEqual((await ok<Filter>(alice, `/api/v2/filters/${f.id}`)).statuses, [a, b]);
    for (const json of [
      { status_id: hidden.id },
      { status_id: "123456789" },
      { status_id: "abc" },
      {},
      { status_id: mine.id },
    ]) {
      const r = await req(alice, `/api/v2/filters/${f.id}/statuses`, "POST", json);
      assert.equal(r.status, 422, `${JSON.stringify(json)}: ${r.status}`);
    }
    assert.deepEqual(await ok(alice, `/api/v2/filters/statuses/${a.id}`, "DELETE"), a);
    assert.equal((await req(alice, `/api/v2/filters/statuses/${a.id}`)).status, 404);
    assert.deepEqual(await ok(alice, `/api/v2/filters/${f.id}/statuses`), [b]);
  });

  it("expiry: expires_in sets expires_at, a blank one clears it", async () => {
    const alice = await user("alice");
    const t0 = Date.now();
    const f = await create(alice, { title: "Soon", context: ["home"], expires_in: 3600 });
    const at = Date.parse(f.expires_at as string);
    assert.ok(at >= t0 + 3_600_000 - 1000 && at <= Date.now() + 3_600_000 + 1000, f.expires_at as string);
    const cleared = await ok<Filter>(alice, `/api/v2/filters/${f.id}`, "PUT", { expires_in: "" });
    assert.equal(cleared.expires_at, null);
    const again = await ok<Filter>(alice, `/api/v2/filters/${f.id}`, "PUT", { expires_in: "60" });
    assert.ok(Date.parse(again.expires_at as string) > Date.now());
    // Expired filters are still listed (clients may renew them).
    await s.ctx.db
      .updateTable("filters")
      .set({ expires_at: "2000-01-01T00:00:00.000Z" })
      .where("id", "=", f.id)
      .execute();
    assert.deepEqual(
      (await ok<Filter[]>(alice, "/api/v2/filters")).map((x) => x.expires_at),
      ["2000-01-01T00:00:00.000Z"],
    );
  });

  it("scopes: read:filters reads, write:filters writes; no token 401, an app token 422", async () => {
    const alice = await user("alice");
    const reader = await s.createUser(`reader${++n}`, { scopes: "read:filters" });
    const writer = await s.createUser(`writer${++n}`, { scopes: "write:filters" });
    const other = await s.createUser(`other${++n}`, { scopes: "read:statuses write:statuses" });
    const f = await create(alice, { title: "x", context: ["home"], keywords_attributes: [{ keyword: "k" }] });
    assert.equal((await req(reader, "/api/v2/filters")).status, 200);
    assert.equal((await req(reader, "/api/v1/filters")).status, 200);
    assert.equal((await req(reader, "/api/v2/filters", "POST", { title: "x", context: ["home"] })).status, 403);
    assert.equal((await req(reader, "/api/v1/filters", "POST", { phrase: "x", context: ["home"] })).status, 403);
    assert.equal((await req(writer, "/api/v2/filters", "POST", { title: "x", context: ["home"] })).status, 200);
    assert.equal((await req(writer, "/api/v2/filters")).status, 403);
    for (const [method, path] of [
      ["GET", "/api/v2/filters"],
      ["POST", "/api/v2/filters"],
      ["GET", `/api/v2/filters/keywords/${f.keywords[0].id}`],
      ["DELETE", `/api/v2/filters/${f.id}`],
      ["GET", "/api/v1/filters"],
    ]) {
      const body = method === "GET" ? undefined : {};
      assert.equal((await req(other, path, method, body)).status, 403, `${method} ${path}`);
      assert.equal((await req(undefined, path, method, body)).status, 401, `${method} ${path}`);
    }
    const app = await s.appToken("read write");
    assert.equal((await req(app, "/api/v2/filters")).status, 422);
    assert.deepEqual((await ok<Filter>(alice, `/api/v2/filters/${f.id}`)).title, "x");
  });

  it("v1: a one-keyword filter, created with irreversible and whole_word, read back through v2", async () => {
    const alice = await user("alice");
    const r = await s.request("/api/v1/filters", {
      method: "POST",
      token: alice.token,
      form: {
        phrase: "spoiler",
        "context[]": ["home", "thread"],
        irreversible: "true",
        whole_word: "true",
        expires_in: "",
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const v1 = r.body;
    assert.deepEqual(v1, {
      id: v1.id,
      phrase: "spoiler",
      context: ["home", "thread"],
      whole_word: true,
      expires_at: null,
      irreversible: true,
    });
    const [v2] = await ok<Filter[]>(alice, "/api/v2/filters");
    assert.equal(v2.title, "spoiler");
    assert.equal(v2.filter_action, "hide");
    assert.deepEqual(v2.keywords, [{ id: v1.id, keyword: "spoiler", whole_word: true }]);

    const plain = await ok(alice, "/api/v1/filters", "POST", { phrase: "meh", context: ["public"], whole_word: false });
    assert.equal(plain.irreversible, false);
    assert.equal(plain.whole_word, false);
    assert.deepEqual(
      (await ok<{ id: string }[]>(alice, "/api/v1/filters")).map((x) => x.id),
      [v1.id, plain.id],
    );
    assert.deepEqual(await ok(alice, `/api/v1/filters/${v1.id}`), v1);

    const upd = await ok(alice, `/api/v1/filters/${v1.id}`, "PUT", {
      phrase: "Spoiler!",
      context: ["notifications"],
      irreversible: false,
      expires_in: 600,
    });
    assert.equal(upd.phrase, "Spoiler!");
    assert.deepEqual(upd.context, ["notifications"]);
    assert.equal(upd.irreversible, false);
    assert.equal(upd.whole_word, true);
    assert.ok(upd.expires_at);
    const v2b = await ok<Filter>(alice, `/api/v2/filters/${v2.id}`);
    assert.equal(v2b.title, "Spoiler!");
    assert.equal(v2b.filter_action, "warn");

    // Bad input: 422, nothing stored.
    for (const json of [
      { context: ["home"] },
      { phrase: "x" },
      { phrase: "x", context: ["bogus"] },
      { phrase: "x", context: ["home"], irreversible: "sometimes" },
    ]) {
      const bad = await req(alice, "/api/v1/filters", "POST", json);
      assert.equal(bad.status, 422, JSON.stringify(json));
    }
    assert.equal((await ok<unknown[]>(alice, "/api/v2/filters")).length, 2);

    // A v1 edit of a filter's own fields is refused when the filter holds several keywords.
    await ok(alice, `/api/v2/filters/${v2.id}/keywords`, "POST", { keyword: "second" });
    const refused = await req(alice, `/api/v1/filters/${v1.id}`, "PUT", { context: ["home"] });
    assert.equal(refused.status, 422);
    assert.deepEqual((await ok<Filter>(alice, `/api/v2/filters/${v2.id}`)).context, ["notifications"]);
    // ... but its keyword alone may change.
    const wordOnly = await ok(alice, `/api/v1/filters/${v1.id}`, "PUT", { whole_word: false });
    assert.equal(wordOnly.whole_word, false);

    // Deleting a v1 filter removes its keyword, and a filter left empty goes with it.
    assert.deepEqual(await ok(alice, `/api/v1/filters/${plain.id}`, "DELETE"), {});
    assert.equal((await req(alice, `/api/v1/filters/${plain.id}`)).status, 404);
    assert.deepEqual(
      (await ok<Filter[]>(alice, "/api/v2/filters")).map((f) => f.id),
      [v2.id],
    );
    assert.deepEqual(await ok(alice, `/api/v1/filters/${v1.id}`, "DELETE"), {});
    assert.deepEqual(
      (await ok<Filter>(alice, `/api/v2/filters/${v2.id}`)).keywords.map((k) => k.keyword),
      ["second"],
    );
  });

  it("works with the masto client", async () => {
    const alice = await user("alice");
    const masto = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const f = await masto.v2.filters.create({
      title: "masto",
      context: ["home", "public"],
      filterAction: "warn",
      keywordsAttributes: [{ keyword: "client", wholeWord: true }],
    });
    assert.equal(f.title, "masto");
    assert.equal(f.keywords?.[0].keyword, "client");
    const kw = await masto.v2.filters.$select(f.id).keywords.create({ keyword: "second", wholeWord: false });
    assert.equal(kw.wholeWord, false);
    const list = await masto.v2.filters.list();
    assert.equal(list[0].keywords?.length, 2);
    const v1 = await masto.v1.filters.create({ phrase: "old", context: ["home"], irreversible: true, wholeWord: true });
    assert.equal(v1.irreversible, true);
    await masto.v2.filters.$select(f.id).remove();
    assert.equal((await masto.v2.filters.list()).length, 1);
  });
});
