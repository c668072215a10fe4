import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("notifications (v1)", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const act = (u: TestUser, id: string, action: string) =>
    s.request(`/api/v1/statuses/${id}/${action}`, { method: "POST", token: u.token });
  const list = async (u: TestUser, query = "") => {
    const r = await s.request(`/api/v1/notifications${query}`, { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r;
  };

  /** Waits until no `notifications.create` job is waiting, delayed or running, and none failed. */
  const settled = async () => {
    const end = Date.now() + 10_000;
    for (;;) {
      const state = await s.ctx.queue.state();
      const mine = state.counts.filter((c) => c.name === "notifications.create" && c.count > 0);
      assert.ok(!mine.some((c) => c.state === "dead"), "a notifications.create job died");
      if (mine.length === 0) return;
      if (Date.now() > end) assert.fail(`jobs still pending: ${JSON.stringify(mine)}`);
      await sleep(20);
    }
  };
  const notes = async (u: TestUser, query = "") => {
    await settled();
    return (await list(u, query)).body as any[];
  };

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
  });
  after(() => s.close());

  it("a mention notifies the mentioned account, never the author", async () => {
    const st = await post(alice, { status: "hello @bob and @alice" });
    const got = await notes(bob);
    const n = got.find((x) => x.status?.id === st.id);
    assert.ok(n, "bob got the mention");
    assert.equal(n.type, "mention");
    assert.equal(n.account.id, alice.account.id);
    assert.equal(n.group_key, `ungrouped-${n.id}`);
    assert.match(n.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.keys(n), ["id", "type", "group_key", "created_at", "account", "status"]);
    assert.equal((await notes(alice)).length, 0, "no self-notification");
  });

  it("favourites notify once, not again when repeated, and an undo removes them", async () => {
    const st = await post(bob, { status: "like this" });
    assert.equal((await act(alice, st.id, "favourite")).status, 200);
    assert.equal((await act(alice, st.id, "favourite")).status, 200);
    assert.equal((await act(bob, st.id, "favourite")).status, 200);
    const favs = (await notes(bob)).filter((n) => n.type === "favourite" && n.status.id === st.id);
    assert.equal(favs.length, 1);
    assert.equal(favs[0].account.id, alice.account.id);
    assert.match(favs[0].group_key, new RegExp(`^favourite-${st.id}-\\d+$`));
    assert.equal(favs[0].status.favourited, true, "rendered for bob, who favourited his own post");
    await act(alice, st.id, "unfavourite");
    const after = (await notes(bob)).filter((n) => n.type === "favourite" && n.status.id === st.id);
    assert.equal(after.length, 0);
  });

  it("a boost notifies the author with the boosted post; an edit notifies who boosted it", async () => {
    const st = await post(bob, { status: "boost this" });
    assert.equal((await act(alice, st.id, "reblog")).status, 200);
    const r = (await notes(bob)).find((n) => n.type === "reblog" && n.status.id === st.id);
    assert.ok(r, "bob got the boost");
    assert.equal(r.account.id, alice.account.id);
    assert.equal(r.status.reblog, null);
    const edited = await s.request(`/api/v1/statuses/${st.id}`, {
      method: "PUT",
      token: bob.token,
      json: { status: "boost this, edited" },
    });
    assert.equal(edited.status, 200);
    const u = (await notes(alice)).find((n) => n.type === "update" && n.status.id === st.id);
    assert.ok(u, "alice got the update");
    assert.equal(u.account.id, bob.account.id);
    assert.equal(u.status.content, "<p>boost this, edited</p>");
    assert.ok(!(await notes(carol)).some((n) => n.type === "update"), "carol did not boost it");
    // Undoing the boost removes its notification.
    await act(alice, st.id, "unreblog");
    assert.ok(!(await notes(bob)).some((n) => n.type === "reblog" && n.status.id === st.id));
  });

  it("an edit that adds a mention notifies the newly mentioned account once", async () => {
    const hal = await s.createUser("hal");
    const st = await post(alice, { status: "hello @bob" });
    const edit = (text: string) =>
      s.request(`/api/v1/statuses/${st.id}`, { method: "PUT", token: alice.token, json: { status: text } });
    assert.equal((await edit("hello @bob and @hal")).status, 200);
    assert.equal((await edit("hello @bob and @hal again")).status, 200);
    const got = (await notes(hal)).filter((n) => n.status?.id === st.id);
    assert.deepEqual(
      got.map((n) => n.type),
      ["mention"],
    );
    assert.equal((await notes(bob)).filter((n) => n.type === "mention" && n.status?.id === st.id).length, 1);
  });

  it("deleting a status removes its notifications", async () => {
    const st = await post(alice, { status: "@carol soon gone" });
    await act(carol, st.id, "favourite");
    assert.ok((await notes(carol)).some((n) => n.status?.id === st.id));
    assert.ok((await notes(alice)).some((n) => n.status?.id === st.id));
    assert.equal((await s.request(`/api/v1/statuses/${st.id}`, { method: "DELETE", token: alice.token })).status, 200);
    assert.ok(!(await notes(carol)).some((n) => n.status?.id === st.id));
    assert.ok(!(await notes(alice)).some((n) => n.status?.id === st.id));
  });

  it("a mention in a direct post notifies the mentioned account and nobody else", async () => {
    const st = await post(alice, { status: "@bob just between us", visibility: "direct" });
    const n = (await notes(bob)).find((x) => x.status?.id === st.id);
    assert.ok(n);
    assert.equal(n.status.visibility, "direct");
    assert.ok(!(await notes(carol)).some((x) => x.status?.id === st.id));
    assert.equal((await s.request(`/api/v1/notifications/${n.id}`, { token: carol.token })).status, 404);
    assert.equal((await s.request(`/api/v1/notifications/${n.id}`, { token: bob.token })).body.id, n.id);
    // Carol favouriting or boosting it is impossible: she cannot see it.
    assert.equal((await act(carol, st.id, "favourite")).status, 404);
  });

  it("nobody who cannot see a private post notifies its author", async () => {
    const st = await post(alice, { status: "followers only", visibility: "private" });
    assert.equal((await act(bob, st.id, "favourite")).status, 404);
    assert.ok(!(await notes(alice)).some((n) => n.status?.id === st.id));
  });

  it("filters by types[], exclude_types[] and account_id", async () => {
    const mine = await s.createUser("dave");
    const st = await post(mine, { status: "filter me" });
    await act(alice, st.id, "favourite");
    await act(bob, st.id, "reblog");
    await post(carol, { status: "hi @dave" });
    const all = await notes(mine);
    assert.deepEqual(all.map((n) => n.type).sort(), ["favourite", "mention", "reblog"]);
    const types = (q: string) => notes(mine, q).then((ns) => ns.map((n) => n.type).sort());
    assert.deepEqual(await types("?types[]=mention"), ["mention"]);
    assert.deepEqual(await types("?types[]=mention&types[]=reblog"), ["mention", "reblog"]);
    assert.deepEqual(await types("?exclude_types[]=mention&exclude_types[]=reblog"), ["favourite"]);
    assert.deepEqual(await types(`?account_id=${bob.account.id}`), ["reblog"]);
  });

  it("pages with max_id, since_id, min_id and limit, with Link headers (also when empty)", async () => {
    const erin = await s.createUser("erin");
    for (let i = 0; i < 5; i++) await post(alice, { status: `@erin number ${i}` });
    const all = await notes(erin);
    assert.equal(all.length, 5);
    const ids = all.map((n) => n.id);
    assert.deepEqual(
      [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1)),
      ids,
      "newest first",
    );
    const first = await list(erin, "?limit=2");
    assert.deepEqual(
      first.body.map((n: any) => n.id),
      ids.slice(0, 2),
    );
    const link = first.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${ids[1]}.*rel="next"`));
    assert.match(link, new RegExp(`min_id=${ids[0]}.*rel="prev"`));
    assert.match(link, /limit=2/);
    const next = await list(erin, `?limit=2&max_id=${ids[1]}`);
    assert.deepEqual(
      next.body.map((n: any) => n.id),
      ids.slice(2, 4),
    );
    const min = await list(erin, `?limit=2&min_id=${ids[4]}`);
    assert.deepEqual(
      min.body.map((n: any) => n.id),
      ids.slice(2, 4),
      "min_id pages forward from the cursor, newest first",
    );
    const since = await list(erin, `?limit=2&since_id=${ids[4]}`);
    assert.deepEqual(
      since.body.map((n: any) => n.id),
      ids.slice(0, 2),
    );
    const empty = await list(erin, `?min_id=${ids[0]}`);
    assert.deepEqual(empty.body, []);
    assert.match(empty.headers.get("link") ?? "", new RegExp(`min_id=${ids[0]}.*rel="prev"`));
    const clamped = await list(erin, "?limit=500");
    assert.equal(clamped.body.length, 5);
    assert.equal((await s.request("/api/v1/notifications?limit=-1", { token: erin.token })).status, 400);
  });

  it("dismisses one and clears all", async () => {
    const fay = await s.createUser("fay");
    await post(alice, { status: "@fay one" });
    await post(alice, { status: "@fay two" });
    const [a, b] = await notes(fay);
    const dismiss = (u: TestUser, id: string) =>
      s.request(`/api/v1/notifications/${id}/dismiss`, { method: "POST", token: u.token });
    assert.equal((await dismiss(bob, a.id)).status, 404, "someone else's");
    const d = await dismiss(fay, a.id);
    assert.equal(d.status, 200);
    assert.deepEqual(d.body, {});
    assert.equal((await s.request(`/api/v1/notifications/${a.id}`, { token: fay.token })).status, 404);
    assert.deepEqual(
      (await notes(fay)).map((n) => n.id),
      [b.id],
    );
    const c = await s.request("/api/v1/notifications/clear", { method: "POST", token: fay.token });
    assert.equal(c.status, 200);
    assert.deepEqual(c.body, {});
    assert.deepEqual(await notes(fay), []);
  });

  it("unread_count counts those newer than the notifications marker", async () => {
    const gus = await s.createUser("gus");
    const count = async (q = "") => {
      const r = await s.request(`/api/v1/notifications/unread_count${q}`, { token: gus.token });
      assert.equal(r.status, 200);
      return r.body.count;
    };
    assert.equal(await count(), 0);
    for (let i = 0; i < 3; i++) await post(alice, { status: `@gus ${i}` });
    const ns = await notes(gus);
    assert.equal(await count(), 3);
    assert.equal(await count("?limit=2"), 2);
    assert.equal(await count("?types[]=favourite"), 0);
    const m = await s.request("/api/v1/markers", {
      method: "POST",
      token: gus.token,
      json: { notifications: { last_read_id: ns[1].id } },
    });
    assert.equal(m.status, 200);
    assert.equal(await count(), 1);
    assert.equal(await count(`?account_id=${bob.account.id}`), 0);
  });

  it("checks tokens and scopes", async () => {
    assert.equal((await s.request("/api/v1/notifications")).status, 401);
    const reader = await s.createUser("reader", { scopes: "read:statuses" });
    assert.equal((await s.request("/api/v1/notifications", { token: reader.token })).status, 403);
    const readOnly = await s.createUser("readonly", { scopes: "read:notifications" });
    assert.equal((await s.request("/api/v1/notifications", { token: readOnly.token })).status, 200);
    assert.equal(
      (await s.request("/api/v1/notifications/clear", { method: "POST", token: readOnly.token })).status,
      403,
    );
    const app = await s.appToken("read write");
    assert.equal((await s.request("/api/v1/notifications", { token: app })).status, 422);
    assert.equal((await s.request("/api/v1/notifications/unread_count", { token: app })).status, 422);
  });
});
