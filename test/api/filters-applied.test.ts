import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { BusMessage } from "../../src/infra/bus/interface.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

interface FilterResult {
  filter: { id: string; title: string; context: string[]; filter_action: string; expires_at: string | null };
  keyword_matches: string[] | null;
  status_matches: string[] | null;
}
interface StatusJson {
  id: string;
  filtered: FilterResult[];
  reblog: StatusJson | null;
}

describe("filters applied: `filtered` on every surface, hide, whole_word, boosts, one event per request", () => {
  let s: TestServer;
  let n = 0;
  const user = (name: string) => s.createUser(`${name}${++n}`);
  const ok = async <T = any>(u: TestUser, path: string, method = "GET", json?: unknown): Promise<T> => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.equal(r.status, 200, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const post = (u: TestUser, json: Record<string, unknown>) => ok<StatusJson>(u, "/api/v1/statuses", "POST", json);
  const filter = (u: TestUser, json: Record<string, unknown>) =>
    ok<{ id: string; keywords: { id: string }[] }>(u, "/api/v2/filters", "POST", json);
  // A poll's end is a job delayed to its expiry: not waited for.
  const drain = () => s.settle({ skip: ["polls.expire"] });
  const byId = (list: StatusJson[], id: string) => list.find((x) => x.id === id);
  const titles = (st: StatusJson | undefined) => (st?.filtered ?? []).map((r) => r.filter.title).sort();

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("home, public, tag, account and a single status each use their context", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    const home = await filter(alice, { title: "H", context: ["home"], keywords_attributes: [{ keyword: "apple" }] });
    await filter(alice, { title: "P", context: ["public"], keywords_attributes: [{ keyword: "apple" }] });
    await filter(alice, { title: "A", context: ["account"], keywords_attributes: [{ keyword: "apple" }] });
    await filter(alice, {
      title: "T",
      context: ["thread", "notifications"],
      keywords_attributes: [{ keyword: "apple" }],
    });
    const hit = await post(bob, { status: "An Apple pie #baking" });
    const miss = await post(bob, { status: "A pear tart #baking" });
    await drain();

    const h = await ok<StatusJson[]>(alice, "/api/v1/timelines/home");
    assert.deepEqual(titles(byId(h, hit.id)), ["H"]);
    const [result] = byId(h, hit.id)?.filtered ?? [];
    assert.deepEqual(result.keyword_matches, ["Apple"]);
    assert.equal(result.status_matches, null);
    assert.deepEqual(result.filter, {
      id: home.id,
      title: "H",
      context: ["home"],
      expires_at: null,
      filter_action: "warn",
    });
    assert.deepEqual(byId(h, miss.id)?.filtered, []);

    assert.deepEqual(titles(byId(await ok(alice, "/api/v1/timelines/public"), hit.id)), ["P"]);
    assert.deepEqual(titles(byId(await ok(alice, "/api/v1/timelines/tag/baking"), hit.id)), ["P"]);
    assert.deepEqual(titles(byId(await ok(alice, `/api/v1/accounts/${bob.account.id}/statuses`), hit.id)), ["A"]);
    // One status on its own: every active filter, whatever its context (as Mastodon).
    assert.deepEqual(titles(await ok(alice, `/api/v1/statuses/${hit.id}`)), ["A", "H", "P", "T"]);
    assert.deepEqual(titles((await ok(alice, `/api/v1/statuses?id[]=${hit.id}`))[0]), ["A", "H", "P", "T"]);
    // Elsewhere (bookmarks, a status just acted on), as Mastodon: every active filter, nothing hidden.
    const bookmarked = await ok<StatusJson>(alice, `/api/v1/statuses/${hit.id}/bookmark`, "POST");
    assert.deepEqual(titles(bookmarked), ["A", "H", "P", "T"]);
    assert.deepEqual(titles(byId(await ok(alice, "/api/v1/bookmarks"), hit.id)), ["A", "H", "P", "T"]);
    // Someone else, and nobody: no filters.
    assert.deepEqual(byId(await ok(bob, "/api/v1/timelines/public"), hit.id)?.filtered, []);
    const anon = await s.request("/api/v1/timelines/public");
    assert.ok(!byId(anon.body, hit.id)?.filtered?.length);
  });

  it("threads and notifications (v1 and v2) use thread and notifications", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await filter(alice, { title: "thread", context: ["thread"], keywords_attributes: [{ keyword: "banana" }] });
    await filter(alice, { title: "notif", context: ["notifications"], keywords_attributes: [{ keyword: "banana" }] });
    const root = await post(alice, { status: "root post" });
    const reply = await post(bob, {
      status: `@${alice.account.username} banana split`,
      in_reply_to_id: root.id,
    });
    await drain();
    const ctx = await ok<{ ancestors: StatusJson[]; descendants: StatusJson[] }>(
      alice,
      `/api/v1/statuses/${root.id}/context`,
    );
    assert.deepEqual(titles(byId(ctx.descendants, reply.id)), ["thread"]);
    const up = await ok<{ ancestors: StatusJson[] }>(alice, `/api/v1/statuses/${reply.id}/context`);
    assert.deepEqual(
      up.ancestors.map((x) => [x.id, x.filtered]),
      [[root.id, []]],
    );

    const notes = await ok<{ type: string; status?: StatusJson }[]>(alice, "/api/v1/notifications");
    const mention = notes.find((x) => x.type === "mention");
    assert.deepEqual(titles(mention?.status), ["notif"]);
    const grouped = await ok<{ statuses: StatusJson[] }>(alice, "/api/v2/notifications");
    assert.deepEqual(titles(byId(grouped.statuses, reply.id)), ["notif"]);
  });

  it("hide filters leave statuses out of home, public, threads, account pages and notifications", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await s.follow(alice, bob);
    await filter(alice, {
      title: "hide",
      context: ["home", "public", "thread", "notifications", "account"],
      filter_action: "hide",
      keywords_attributes: [{ keyword: "cherry" }],
    });
    await filter(alice, { title: "warn", context: ["home"], keywords_attributes: [{ keyword: "plum" }] });
    const root = await post(alice, { status: "my root" });
    const hidden = await post(bob, { status: `@${alice.account.username} cherry on top`, in_reply_to_id: root.id });
    const kept = await post(bob, { status: `@${alice.account.username} plum jam`, in_reply_to_id: root.id });
    await drain();
    const ids = (list: { id: string }[]) => list.map((x) => x.id);

    const home = await ok<StatusJson[]>(alice, "/api/v1/timelines/home");
    assert.ok(!ids(home).includes(hidden.id));
    assert.ok(ids(home).includes(kept.id));
    assert.ok(!ids(await ok(alice, `/api/v1/accounts/${bob.account.id}/statuses`)).includes(hidden.id));
    const ctx = await ok(alice, `/api/v1/statuses/${root.id}/context`);
    assert.deepEqual(ids(ctx.descendants), [kept.id]);
    const notes = await ok<{ status?: { id: string } }[]>(alice, "/api/v1/notifications");
    assert.deepEqual(
      notes.map((x) => x.status?.id),
      [kept.id],
    );
    const grouped = await ok<{ statuses: StatusJson[]; notification_groups: { status_id: string }[] }>(
      alice,
      "/api/v2/notifications",
    );
    assert.deepEqual(ids(grouped.statuses), [kept.id]);
    assert.deepEqual(
      grouped.notification_groups.map((g) => g.status_id),
      [kept.id],
    );
    // The status itself is still there, marked.
    assert.deepEqual(titles(await ok(alice, `/api/v1/statuses/${hidden.id}`)), ["hide"]);
    // Bob sees everything.
    assert.ok(ids(await ok(bob, `/api/v1/statuses/${root.id}/context`).then((c) => c.descendants)).includes(hidden.id));
  });

  it("whole_word follows Mastodon: word boundaries only where the keyword starts or ends with a word character, Unicode letters, any case", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const cases: [keyword: string, wholeWord: boolean, text: string, match: string | null][] = [
      ["cat", true, "A CAT sat", "CAT"],
      ["cat", true, "concatenate", null],
      ["cat", true, "cats", null],
      ["cat", true, "cat_food", null],
      ["cat", true, "(cat)", "cat"],
      ["cat", false, "concatenate", "cat"],
      ["café", true, "Le Café.", "Café"],
      ["café", true, "cafés", null],
      ["über", true, "Über alles", "Über"],
      ["über", true, "überall", null],
      ["кот", true, "Мой КОТ спит", "КОТ"],
      ["кот", true, "котик", null],
      ["#tag", true, "with x#tag", "#tag"],
      ["#tag", true, "#tags", null],
      ["1st", true, "the 1st one", "1st"],
      ["1st", true, "21st", null],
      ["e.g.", true, "e.g.x", "e.g."],
      ["a+b", true, "say a+b!", "a+b"],
    ];
    for (const [keyword, wholeWord, text, match] of cases) {
      const f = await filter(alice, {
        title: `${keyword}/${wholeWord}`,
        context: ["public"],
        keywords_attributes: [{ keyword, whole_word: wholeWord }],
      });
      const st = await post(bob, { status: text });
      const got = await ok<StatusJson[]>(alice, `/api/v1/accounts/${bob.account.id}/statuses?limit=1`);
      assert.equal(got[0].id, st.id);
      const pub = byId(await ok(alice, "/api/v1/timelines/public?limit=5"), st.id);
      const result = pub?.filtered.find((r) => r.filter.id === f.id);
      assert.deepEqual(result?.keyword_matches ?? null, match === null ? null : [match], `${keyword} in ${text}`);
      await ok(alice, `/api/v2/filters/${f.id}`, "DELETE");
    }
  });

  it("matches the content warning, poll options and media descriptions; several keywords of one filter give one result", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const f = await filter(alice, {
      title: "words",
      context: ["public"],
      keywords_attributes: [{ keyword: "kiwi" }, { keyword: "mango" }],
    });
    const cw = await post(bob, { status: "hidden body", spoiler_text: "About mango" });
    const poll = await post(bob, { status: "Vote!", poll: { options: ["kiwi", "lime"], expires_in: 3600 } });
    const both = await post(bob, { status: "kiwi and mango" });
    const PNG =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const media = await ok<{ id: string }>(bob, "/api/v1/media", "POST", { file: PNG, description: "A ripe Mango" });
    const described = await post(bob, { status: "look", media_ids: [media.id] });
    const pub = await ok<StatusJson[]>(alice, "/api/v1/timelines/public?limit=10");
    assert.deepEqual(
      byId(pub, described.id)?.filtered.map((r) => r.keyword_matches),
      [["Mango"]],
    );
    assert.deepEqual(
      byId(pub, cw.id)?.filtered.map((r) => r.keyword_matches),
      [["mango"]],
    );
    assert.deepEqual(
      byId(pub, poll.id)?.filtered.map((r) => r.keyword_matches),
      [["kiwi"]],
    );
    assert.deepEqual(
      byId(pub, both.id)?.filtered.map((r) => [r.filter.id, r.keyword_matches]),
      [[f.id, ["kiwi"]]],
    );
  });

  it("boosts: the boosted post is matched, `filtered` is on the boost and its reblog; status filters match either id", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const carol = await user("carol");
    await s.follow(alice, carol);
    await filter(alice, { title: "kw", context: ["home"], keywords_attributes: [{ keyword: "durian" }] });
    const original = await post(bob, { status: "durian season" });
    const boost = await ok<StatusJson>(carol, `/api/v1/statuses/${original.id}/reblog`, "POST");
    const plain = await post(bob, { status: "nothing here" });
    const f = await filter(alice, { title: "st", context: ["home"] });
    await ok(alice, `/api/v2/filters/${f.id}/statuses`, "POST", { status_id: plain.id });
    const boost2 = await ok<StatusJson>(carol, `/api/v1/statuses/${plain.id}/reblog`, "POST");
    await drain();
    const home = await ok<StatusJson[]>(alice, "/api/v1/timelines/home");
    const b = byId(home, boost.id);
    assert.deepEqual(titles(b), ["kw"]);
    assert.deepEqual(titles(b?.reblog ?? undefined), ["kw"]);
    assert.deepEqual(b?.filtered[0].keyword_matches, ["durian"]);
    const b2 = byId(home, boost2.id);
    assert.deepEqual(
      b2?.filtered.map((r) => [r.filter.title, r.status_matches]),
      [["st", [plain.id]]],
    );
    assert.deepEqual(
      b2?.reblog?.filtered.map((r) => r.status_matches),
      [[plain.id]],
    );
  });

  it("expired filters do not apply", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const f = await filter(alice, { title: "old", context: ["public"], keywords_attributes: [{ keyword: "fig" }] });
    const st = await post(bob, { status: "fig tree" });
    assert.deepEqual(titles(byId(await ok(alice, "/api/v1/timelines/public"), st.id)), ["old"]);
    await s.ctx.db
      .updateTable("filters")
      .set({ expires_at: "2001-01-01T00:00:00.000Z" })
      .where("id", "=", f.id)
      .execute();
    assert.deepEqual(byId(await ok(alice, "/api/v1/timelines/public"), st.id)?.filtered, []);
    await ok(alice, `/api/v2/filters/${f.id}`, "PUT", { expires_in: "" });
    assert.deepEqual(titles(byId(await ok(alice, "/api/v1/timelines/public"), st.id)), ["old"]);
  });

  it("each request that changes filters publishes exactly one filters_changed for the owner", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const events: BusMessage[] = [];
    const others: BusMessage[] = [];
    const channel = `timeline:${alice.account.id}`;
    const stop = s.ctx.bus.subscribe(channel, (m) => events.push(m));
    const stopOther = s.ctx.bus.subscribe(`timeline:${bob.account.id}`, (m) => others.push(m));
    await Promise.all([stop.ready, stopOther.ready]);
    let sentinels = 0;
    /**
     * Waits until everything this process published on alice's channel so far has arrived: with
     * Redis or PostgreSQL the bus delivers after `publish` returns, in the order of publishing, so
     * a marker published now arrives after all of it.
     */
    const sync = async () => {
      const n = ++sentinels;
      await s.ctx.bus.publish(channel, "test.sentinel", n);
      const end = Date.now() + 10_000;
      while (!events.some((e) => e.event === "test.sentinel" && e.payload === n)) {
        if (Date.now() > end) throw new Error("the sentinel did not arrive");
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    try {
      const count = async (fn: () => Promise<unknown>) => {
        const before = events.length;
        await fn();
        await sync();
        const got = events.slice(before).filter((e) => e.event !== "test.sentinel");
        assert.ok(got.every((e) => e.event === "filters_changed"));
        return got.length;
      };
      const st = await post(alice, { status: "x" });
      // The post reaches alice's home stream (an `update` on the same channel) first.
      await drain();
      await sync();
      let f = { id: "", keywords: [] as { id: string }[] };
      assert.equal(
        await count(async () => {
          f = await filter(alice, {
            title: "many",
            context: ["home"],
            keywords_attributes: [{ keyword: "a" }, { keyword: "b" }, { keyword: "c" }],
          });
        }),
        1,
      );
      const [a, b] = f.keywords;
      const put = () =>
        ok(alice, `/api/v2/filters/${f.id}`, "PUT", {
          title: "many!",
          keywords_attributes: [
            { id: a.id, keyword: "A" },
            { id: b.id, _destroy: true },
            { keyword: "d" },
            { keyword: "e" },
          ],
        });
      assert.equal(await count(put), 1);
      assert.equal(await count(() => ok(alice, `/api/v2/filters/${f.id}/keywords`, "POST", { keyword: "z" })), 1);
      assert.equal(await count(() => ok(alice, `/api/v2/filters/keywords/${a.id}`, "PUT", { keyword: "aa" })), 1);
      assert.equal(await count(() => ok(alice, `/api/v1/filters/keywords/${a.id}`, "DELETE")), 1);
      let fs = { id: "" };
      assert.equal(
        await count(async () => {
          fs = await ok(alice, `/api/v2/filters/${f.id}/statuses`, "POST", { status_id: st.id });
        }),
        1,
      );
      assert.equal(await count(() => ok(alice, `/api/v2/filters/statuses/${fs.id}`, "DELETE")), 1);
      let v1 = { id: "" };
      assert.equal(
        await count(async () => {
          v1 = await ok(alice, "/api/v1/filters", "POST", { phrase: "legacy", context: ["home"], irreversible: true });
        }),
        1,
      );
      assert.equal(await count(() => ok(alice, `/api/v1/filters/${v1.id}`, "PUT", { phrase: "legacy2" })), 1);
      assert.equal(await count(() => ok(alice, `/api/v1/filters/${v1.id}`, "DELETE")), 1);
      // Reads and refused writes publish nothing.
      assert.equal(await count(() => ok(alice, "/api/v2/filters")), 0);
      assert.equal(
        await count(() =>
          s.request(`/api/v2/filters/${f.id}`, {
            method: "PUT",
            token: alice.token,
            json: { keywords_attributes: [{ keyword: "ok" }, { keyword: "", whole_word: true }] },
          }),
        ),
        0,
      );
      assert.equal(await count(() => ok(alice, `/api/v2/filters/${f.id}`, "DELETE")), 1);
      assert.deepEqual(others, []);
    } finally {
      stop();
      stopOther();
    }
  });
});
