import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { publicTimeline, tagTimeline } from "../../src/services/feeds/timelines.ts";
import { accountStatusesPage, savedStatusesPage } from "../../src/services/statuses/pages.ts";
import { filterVisible } from "../../src/services/statuses/views.ts";
import { statusesText } from "../../src/services/statuses/views-text.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// The public, hashtag, list and account timelines, favourites and bookmarks answer from pages of
// ids kept while the database's change stamp holds and from kept renders (statuses/rendered.ts).
// Each must be the very bytes the older path (filterVisible + statusesText) gives the same viewer,
// with the same Link header, and a change must show on the next page.
describe("timelines: public, hashtag, list, account, favourites and bookmarks from kept renders", () => {
  let s: TestServer;
  let bob: TestUser; // the reader
  let alice: TestUser; // followed by bob, in his list
  let carol: TestUser; // blocked by bob
  let dave: TestUser; // muted by bob
  let erin: TestUser; // blocks bob
  let frank: TestUser; // not followed, in bob's list
  let listId: string;

  type Window = { maxId?: string; limit: number };
  type Old = { rows: readonly { id: string }[]; body: Buffer };

  const call = async (u: TestUser, method: string, path: string, json?: Record<string, unknown>) => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const post = async (u: TestUser, json: Record<string, unknown>) =>
    (await call(u, "POST", "/api/v1/statuses", json)) as { id: string };

  /** The older path's answer for each endpoint. */
  const older = {
    public: async (viewerId: string | undefined, w: Window): Promise<Old> => {
      const p = await publicTimeline(s.ctx, viewerId, { local: true, remote: false, onlyMedia: false }, w);
      return { rows: p.rows, body: await statusesText(s.ctx, p.visible, viewerId, { filterContext: "public" }) };
    },
    federated: async (viewerId: string | undefined, w: Window): Promise<Old> => {
      const p = await publicTimeline(s.ctx, viewerId, { local: false, remote: false, onlyMedia: false }, w);
      return { rows: p.rows, body: await statusesText(s.ctx, p.visible, viewerId, { filterContext: "public" }) };
    },
    tag: async (viewerId: string | undefined, w: Window): Promise<Old> => {
      const none = { any: [], all: [], none: [] };
      const opts = { local: false, remote: false, onlyMedia: false };
      const p = await tagTimeline(s.ctx, viewerId, "keptags", none, opts, w);
      return { rows: p.rows, body: await statusesText(s.ctx, p.visible, viewerId, { filterContext: "public" }) };
    },
    account: (opts: { pinned?: boolean; excludeReplies?: boolean; excludeReblogs?: boolean; onlyMedia?: boolean }) => {
      return async (viewerId: string | undefined, w: Window): Promise<Old> => {
        const account = alice.account;
        const o = { pinned: false, excludeReplies: false, excludeReblogs: false, onlyMedia: false, ...opts };
        const p = await accountStatusesPage(s.ctx, account, viewerId, o, w);
        return { rows: p.rows, body: await statusesText(s.ctx, p.statuses, viewerId, { filterContext: "account" }) };
      };
    },
    saved: (kind: "favourites" | "bookmarks") => async (viewerId: string | undefined, w: Window) => {
      const p = await savedStatusesPage(s.ctx, kind, viewerId as string, w);
      return { rows: p.rows, body: await statusesText(s.ctx, p.statuses, viewerId) };
    },
    list: async (viewerId: string | undefined, w: Window): Promise<Old> => {
      const ids = await s.ctx.repos.lists.page(listId, w);
      const rows = await s.ctx.repos.statuses.getByIds(ids);
      const ordered = ids.flatMap((id) => rows.filter((r) => r.id === id));
      const visible = await filterVisible(s.ctx, ordered, viewerId);
      return {
        rows: ids.map((id) => ({ id })),
        body: await statusesText(s.ctx, visible, viewerId, { filterContext: "home" }),
      };
    },
  };

  const paths = () => ({
    public: "/api/v1/timelines/public?local=true",
    federated: "/api/v1/timelines/public?",
    tag: "/api/v1/timelines/tag/keptags?",
    account: `/api/v1/accounts/${alice.account.id}/statuses?`,
    accountPinned: `/api/v1/accounts/${alice.account.id}/statuses?pinned=true`,
    accountNoReplies: `/api/v1/accounts/${alice.account.id}/statuses?exclude_replies=true&exclude_reblogs=true`,
    accountMedia: `/api/v1/accounts/${alice.account.id}/statuses?only_media=true`,
    favourites: "/api/v1/favourites?",
    bookmarks: "/api/v1/bookmarks?",
    list: `/api/v1/timelines/list/${listId}?`,
  });
  const olderOf = (name: keyof ReturnType<typeof paths>) =>
    ({
      public: older.public,
      federated: older.federated,
      tag: older.tag,
      account: older.account({}),
      accountPinned: older.account({ pinned: true }),
      accountNoReplies: older.account({ excludeReplies: true, excludeReblogs: true }),
      accountMedia: older.account({ onlyMedia: true }),
      favourites: older.saved("favourites"),
      bookmarks: older.saved("bookmarks"),
      list: older.list,
    })[name];

  /** The endpoint's body as text, with its Link header. */
  const fetched = async (path: string, u: TestUser | undefined) => {
    const r = await fetch(`${s.url}${path}`, { headers: u ? { Authorization: `Bearer ${u.token}` } : {} });
    assert.equal(r.status, 200, `${path}: ${r.status}`);
    return { body: await r.text(), link: r.headers.get("link") };
  };

  /** Asks the endpoint (twice: the second from the kept page) and checks it against the older path. */
  const same = async (name: keyof ReturnType<typeof paths>, u: TestUser | undefined, w: Window = { limit: 40 }) => {
    const path = `${paths()[name]}&limit=${w.limit}${w.maxId ? `&max_id=${w.maxId}` : ""}`;
    const old = await olderOf(name)(u?.account.id, w);
    for (let round = 0; round < 2; round++) {
      const got = await fetched(path, u);
      assert.equal(got.body, old.body.toString(), `${name} for ${u?.account.username ?? "anonymous"}, round ${round}`);
      // As setLinkHeader draws it from the rows the older path read.
      const [first, last] = [old.rows[0]?.id, old.rows.at(-1)?.id];
      const link = String(got.link);
      assert.equal(link.includes(`max_id=${last}>; rel="next"`), old.rows.length >= w.limit, `${name}: ${link}`);
      if (first !== undefined) assert.ok(link.includes(`min_id=${first}>; rel="prev"`), `${name}: ${link}`);
    }
    return JSON.parse(old.body.toString()) as Record<string, any>[];
  };
  const all = ["public", "federated", "tag", "account", "accountPinned", "accountNoReplies", "accountMedia"] as const;
  const signedIn = [...all, "favourites", "bookmarks", "list"] as const;

  before(async () => {
    s = await startTestServer();
    [bob, alice, carol, dave, erin, frank] = await Promise.all(
      ["bob", "alice", "carol", "dave", "erin", "frank"].map((n) => s.createUser(n)),
    );
    await s.follow(bob, alice);
    await s.follow(bob, frank);
    listId = ((await call(bob, "POST", "/api/v1/lists", { title: "kept" })) as { id: string }).id;
    await call(bob, "POST", `/api/v1/lists/${listId}/accounts`, { account_ids: [alice.account.id, frank.account.id] });

    const a1 = await post(alice, { status: "alice one #keptags" });
    await post(alice, { status: "alice followers only #keptags", visibility: "private" });
    await post(alice, { status: "alice unlisted", visibility: "unlisted" });
    await post(alice, { status: "a reply to herself", in_reply_to_id: a1.id });
    const f1 = await post(frank, { status: "frank with a spoiler inside #keptags" });
    const f2 = await post(frank, { status: "frank tells a secret #keptags" });
    await call(alice, "POST", `/api/v1/statuses/${f1.id}/reblog`);
    await call(alice, "POST", `/api/v1/statuses/${a1.id}/pin`);
    const c1 = await post(carol, { status: "carol #keptags" });
    const d1 = await post(dave, { status: "dave #keptags" });
    const e1 = await post(erin, { status: "erin #keptags" });
    await call(frank, "POST", "/api/v1/statuses", { status: `@alice a reply`, in_reply_to_id: a1.id });
    for (const id of [a1.id, f1.id, f2.id, c1.id, d1.id]) {
      await call(bob, "POST", `/api/v1/statuses/${id}/favourite`);
      await call(bob, "POST", `/api/v1/statuses/${id}/bookmark`);
    }
    await call(frank, "POST", `/api/v1/statuses/${e1.id}/favourite`);
    const gone = await post(alice, { status: "soon deleted #keptags" });
    await call(bob, "POST", `/api/v1/statuses/${gone.id}/favourite`);
    await call(alice, "DELETE", `/api/v1/statuses/${gone.id}`);

    await call(bob, "POST", `/api/v1/accounts/${carol.account.id}/block`);
    await call(bob, "POST", `/api/v1/accounts/${dave.account.id}/mute`);
    await call(erin, "POST", `/api/v1/accounts/${bob.account.id}/block`);
    const filter = (title: string, action: string, keyword: string) =>
      call(bob, "POST", "/api/v2/filters", {
        title,
        context: ["home", "public", "account", "thread"],
        filter_action: action,
        keywords_attributes: [{ keyword }],
      });
    await filter("spoilers", "warn", "spoiler");
    await filter("secrets", "hide", "secret");
    await s.settle({ delayed: false });
  });
  after(() => s.close());

  it("is the older path's JSON, byte for byte, for a reader with blocks, mutes and filters", async () => {
    for (const name of signedIn) await same(name, bob);
    const local = await same("public", bob);
    assert.ok(
      local.some((x) => x.filtered?.length),
      "a warn filter marks a status",
    );
    assert.ok(!local.some((x) => (x as { content?: string }).content?.includes("secret")), "hide leaves it out");
    const favourites = await same("favourites", bob);
    // Favourites keep what a hide filter matches (marked) and what the reader blocks or mutes.
    assert.equal(favourites.length, 5);
  });

  it("is the older path's JSON for an anonymous reader and for another account", async () => {
    for (const name of all) await same(name, undefined);
    // The list is bob's: others get a 404.
    for (const name of [...all, "favourites", "bookmarks"] as const) {
      await same(name, carol);
      await same(name, frank);
    }
  });

  it("pages with max_id as the older path, Link headers included", async () => {
    const first = await same("tag", bob, { limit: 2 });
    await same("tag", bob, { limit: 2, maxId: first.at(-1)?.id });
    const favourites = await s.request("/api/v1/favourites?limit=2", { token: bob.token });
    const next = /max_id=(\d+)/.exec(String(favourites.headers.get("link")))?.[1];
    assert.ok(next);
    await same("favourites", bob, { limit: 2, maxId: next });
    await same("account", undefined, { limit: 2, maxId: first.at(-1)?.id });
  });

  it("changes with a new post, a delete and a block", async () => {
    for (const name of signedIn) await same(name, bob);
    const before = (await fetched("/api/v1/timelines/public?local=true&limit=40", bob)).body;
    const beforeAnon = (await fetched("/api/v1/timelines/tag/keptags?limit=40", undefined)).body;
    const fresh = await post(alice, { status: "a new one #keptags" });
    await call(bob, "POST", `/api/v1/statuses/${fresh.id}/bookmark`);
    await s.settle({ delayed: false });
    const withNew = await same("public", bob);
    assert.notEqual(JSON.stringify(withNew), before);
    assert.equal(withNew[0]?.id, fresh.id);
    assert.equal((await same("tag", undefined))[0]?.id, fresh.id);
    assert.notEqual((await fetched("/api/v1/timelines/tag/keptags?limit=40", undefined)).body, beforeAnon);
    assert.equal((await same("bookmarks", bob))[0]?.id, fresh.id);
    assert.equal((await same("list", bob))[0]?.id, fresh.id);
    for (const name of signedIn) await same(name, bob);

    await call(alice, "DELETE", `/api/v1/statuses/${fresh.id}`);
    await s.settle({ delayed: false });
    for (const name of signedIn) {
      const page = await same(name, bob);
      assert.ok(!page.some((x) => x.id === fresh.id), `${name} drops the deleted post`);
    }
    assert.ok(!(await same("tag", undefined)).some((x) => x.id === fresh.id));

    await call(bob, "POST", `/api/v1/accounts/${frank.account.id}/block`);
    await s.settle({ delayed: false });
    for (const name of signedIn) await same(name, bob);
    const local = await same("public", bob);
    assert.ok(!local.some((x) => (x as { account?: { id: string } }).account?.id === frank.account.id));
    // Alice's boost of frank's post leaves her statuses for bob, not for others.
    const boosts = (page: { reblog?: unknown }[]) => page.filter((x) => x.reblog).length;
    assert.equal(boosts(await same("account", bob)), 0);
    assert.equal(boosts(await same("account", undefined)), 1);
  });
});
