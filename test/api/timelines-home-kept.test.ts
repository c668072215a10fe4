import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import pg from "pg";
import sharp from "sharp";
import { createScheduler } from "../../src/infra/scheduler/scheduler.ts";
import { addCustomEmoji } from "../../src/services/custom-emojis/manage.ts";
import { announceElsewhere } from "../helpers/elsewhere.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// The home timeline answers from status and account JSON, viewer flags, relations and compiled
// filters kept in memory (services/statuses/kept.ts), dropped when the database's change log
// (render_changes, written by triggers) names them. Every change must show on the next page,
// whoever wrote it, and the page must be the same JSON as each status on its own.
describe("timelines: home from kept renders", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const home = async (u: TestUser) => {
    const r = await s.request("/api/v1/timelines/home?limit=40", { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as Record<string, any>[];
  };
  const entry = async (u: TestUser, id: string) => (await home(u)).find((x) => x.id === id);
  const single = async (u: TestUser, id: string) =>
    (await s.request(`/api/v1/statuses/${id}`, { token: u.token })).body;
  const sameJson = (a: unknown, b: unknown) => assert.equal(JSON.stringify(a), JSON.stringify(b));
  const call = async (u: TestUser, method: string, path: string, json?: Record<string, unknown>) => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  /** Waits (bounded) until the fan-out job has put `id` into `u`'s home. */
  const reach = async (u: TestUser, id: string) => {
    await s.settle({ delayed: false });
    assert.ok(await entry(u, id), `status ${id} reached ${u.account.username}'s home`);
  };

  /** An UPDATE made by another connection, as another process or an operator's SQL would. */
  const writeElsewhere = async (text: string, params: unknown[]) => {
    if (s.ctx.dialect === "sqlite") {
      const other = new DatabaseSync(join(s.ctx.config.dataDir, "gannet.sqlite3"));
      try {
        other.exec("PRAGMA busy_timeout = 5000");
        other.prepare(text.replace(/\$\d+/g, "?")).run(...(params as (string | number)[]));
      } finally {
        other.close();
      }
      // Another connection's commit is seen within 2 ms (sqlite-dialect.ts dataVersion).
      await new Promise((r) => setTimeout(r, 5));
      return;
    }
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(s.ctx.db);
    const client = new pg.Client({ connectionString: s.ctx.config.databaseUrl });
    await client.connect();
    try {
      await client.query(`SET search_path TO ${rows[0]?.schema}`);
      await client.query(text, params);
    } finally {
      await client.end();
    }
    await announceElsewhere(s);
  };

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    await s.follow(bob, alice);
    await s.follow(bob, carol);
  });
  after(() => s.close());

  it("is the same JSON as each status on its own: posts, boosts, polls, private posts, twice", async () => {
    const a = await post(alice, { status: "hello @bob #kepthome" });
    const p = await post(alice, { status: "followers only", visibility: "private" });
    const poll = await post(alice, { status: "pick one", poll: { options: ["x", "y"], expires_in: 3600 } });
    // Bob does not follow dave: carol's boost of dave's post reaches bob (a boost of a post already
    // in the feed would not).
    const dave = await s.createUser("dave");
    const d = await post(dave, { status: "dave's words" });
    const boost = (await call(carol, "POST", `/api/v1/statuses/${d.id}/reblog`)) as { id: string };
    await reach(bob, boost.id);
    for (let round = 0; round < 2; round++) {
      const page = await home(bob);
      for (const id of [a.id, p.id, poll.id, boost.id]) {
        const shown = page.find((x) => x.id === id);
        assert.ok(shown, `${id} is on bob's home`);
        sameJson(shown, await single(bob, id));
      }
    }
    // The viewer's own posts carry `pinned`.
    const own = await post(bob, { status: "mine" });
    await reach(bob, own.id);
    sameJson(await entry(bob, own.id), await single(bob, own.id));
  });

  it("shows the viewer's flags, counts, edits, poll votes and account changes at once", async () => {
    const st = await post(alice, { status: "before the edit" });
    const poll = await post(alice, { status: "vote", poll: { options: ["a", "b"], expires_in: 3600 } });
    await reach(bob, poll.id);
    await home(bob);
    await call(bob, "POST", `/api/v1/statuses/${st.id}/favourite`);
    await call(bob, "POST", `/api/v1/statuses/${st.id}/bookmark`);
    await call(bob, "POST", `/api/v1/statuses/${st.id}/mute`);
    let e = await entry(bob, st.id);
    assert.equal(e?.favourited, true);
    assert.equal(e?.bookmarked, true);
    assert.equal(e?.muted, true);
    assert.equal(e?.favourites_count, 1);
    await call(carol, "POST", `/api/v1/statuses/${st.id}/favourite`);
    await call(bob, "POST", `/api/v1/statuses/${st.id}/unfavourite`);
    await call(bob, "POST", `/api/v1/statuses/${st.id}/unmute`);
    e = await entry(bob, st.id);
    assert.equal(e?.favourited, false);
    assert.equal(e?.muted, false);
    assert.equal(e?.favourites_count, 1);
    await call(alice, "PUT", `/api/v1/statuses/${st.id}`, { status: "after the edit" });
    await call(alice, "PATCH", "/api/v1/accounts/update_credentials", { display_name: "Alice Again" });
    e = await entry(bob, st.id);
    assert.match(e?.content, /after the edit/);
    assert.equal(e?.account.display_name, "Alice Again");
    const pollId = (await entry(bob, poll.id))?.poll.id;
    await call(carol, "POST", `/api/v1/polls/${pollId}/votes`, { choices: [1] });
    assert.equal((await entry(bob, poll.id))?.poll.votes_count, 1);
    await call(bob, "POST", `/api/v1/polls/${pollId}/votes`, { choices: [0] });
    const voted = await entry(bob, poll.id);
    assert.equal(voted?.poll.voted, true);
    assert.deepEqual(voted?.poll.own_votes, [0]);
    sameJson(voted, await single(bob, poll.id));
    // A boost by the viewer shows as `reblogged` on the post.
    await call(bob, "POST", `/api/v1/statuses/${st.id}/reblog`);
    assert.equal((await entry(bob, st.id))?.reblogged, true);
  });

  it("shows changes written by another connection", async () => {
    const st = await post(alice, { status: "original text" });
    await reach(bob, st.id);
    await home(bob);
    await writeElsewhere("UPDATE statuses SET content = $1 WHERE id = $2", ["<p>changed elsewhere</p>", st.id]);
    assert.equal((await entry(bob, st.id))?.content, "<p>changed elsewhere</p>");
    await writeElsewhere("UPDATE accounts SET display_name = $1 WHERE id = $2", [
      "Renamed Elsewhere",
      alice.account.id,
    ]);
    assert.equal((await entry(bob, st.id))?.account.display_name, "Renamed Elsewhere");
    await writeElsewhere("INSERT INTO bookmarks (id, account_id, status_id, created_at) VALUES ($1, $2, $3, $4)", [
      s.ctx.ids.next(),
      bob.account.id,
      st.id,
      new Date().toISOString(),
    ]);
    assert.equal((await entry(bob, st.id))?.bookmarked, true);
    // A block written straight into the table (the feed entry stays): the page leaves it out.
    await writeElsewhere("INSERT INTO blocks (id, account_id, target_account_id, created_at) VALUES ($1, $2, $3, $4)", [
      s.ctx.ids.next(),
      alice.account.id,
      bob.account.id,
      new Date().toISOString(),
    ]);
    assert.equal(await entry(bob, st.id), undefined);
    await writeElsewhere("DELETE FROM blocks WHERE account_id = $1", [alice.account.id]);
    assert.ok(await entry(bob, st.id));
  });

  it("applies filters as they change, and a custom emoji added after the post", async () => {
    const st = await post(carol, { status: "spoilers about :homecat: the finale" });
    await reach(bob, st.id);
    assert.deepEqual((await entry(bob, st.id))?.filtered, []);
    const filter = (await call(bob, "POST", "/api/v2/filters", {
      title: "no spoilers",
      context: ["home"],
      filter_action: "warn",
      keywords_attributes: [{ keyword: "finale" }],
    })) as { id: string; keywords: { id: string }[] };
    let e = await entry(bob, st.id);
    assert.deepEqual(
      e?.filtered.map((f: any) => f.keyword_matches),
      [["finale"]],
    );
    sameJson(e?.filtered, (await single(bob, st.id)).filtered);
    const kw = filter.keywords[0]?.id;
    await call(bob, "PUT", `/api/v2/filters/keywords/${kw}`, { keyword: "nothing here" });
    assert.deepEqual((await entry(bob, st.id))?.filtered, []);
    await call(bob, "PUT", `/api/v2/filters/keywords/${kw}`, { keyword: "spoilers" });
    await call(bob, "PUT", `/api/v2/filters/${filter.id}`, { filter_action: "hide" });
    assert.equal(await entry(bob, st.id), undefined);
    await call(bob, "DELETE", `/api/v2/filters/${filter.id}`);
    e = await entry(bob, st.id);
    assert.deepEqual(e?.filtered, []);
    assert.deepEqual(e?.emojis, []);
    const png = new Uint8Array(
      await sharp({ create: { width: 16, height: 16, channels: 4, background: "#3366ff" } })
        .png()
        .toBuffer(),
    );
    await addCustomEmoji(s.ctx, { shortcode: "homecat", data: png });
    e = await entry(bob, st.id);
    assert.deepEqual(
      e?.emojis.map((x: { shortcode: string }) => x.shortcode),
      ["homecat"],
    );
    sameJson(e, await single(bob, st.id));
  });

  it("keeps working when the change log is trimmed by the scheduler", async () => {
    const st = await post(alice, { status: "trim me" });
    await reach(bob, st.id);
    assert.ok((await s.ctx.repos.renderChanges.latest()) > 0);
    await (await createScheduler(s.ctx)).runSoon("render-changes.trim");
    await s.settle({ delayed: false });
    await s.ctx.repos.renderChanges.trim(0);
    assert.deepEqual(await s.ctx.repos.renderChanges.since(0, 10), []);
    await call(carol, "POST", `/api/v1/statuses/${st.id}/favourite`);
    assert.equal((await entry(bob, st.id))?.favourites_count, 1);
    await writeElsewhere("UPDATE statuses SET content = $1 WHERE id = $2", ["<p>after the trim</p>", st.id]);
    assert.equal((await entry(bob, st.id))?.content, "<p>after the trim</p>");
  });

  it("leaves out a deleted post and an author who is suspended", async () => {
    const st = await post(alice, { status: "soon gone" });
    const other = await post(carol, { status: "carol stays" });
    await reach(bob, other.id);
    assert.ok(await entry(bob, st.id));
    await writeElsewhere("UPDATE statuses SET deleted_at = $1 WHERE id = $2", [new Date().toISOString(), st.id]);
    assert.equal(await entry(bob, st.id), undefined);
    assert.ok(await entry(bob, other.id));
    await writeElsewhere("UPDATE accounts SET suspended_at = $1 WHERE id = $2", [
      new Date().toISOString(),
      carol.account.id,
    ]);
    assert.equal(await entry(bob, other.id), undefined);
  });
});
