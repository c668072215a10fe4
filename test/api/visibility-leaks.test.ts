import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * One scenario, every built endpoint: a private (followers-only) or direct status never reaches
 * anyone who may not see it. Each secret status carries a marker word; a response is checked both
 * for the ids of the statuses (and boosts) it renders and for the marker words anywhere in it.
 */

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

type Viewer = "alice" | "bob" | "carol" | "dave" | "eve" | "anon" | "app";
type Json = any;

describe("visibility: private and direct statuses never leak", () => {
  let s: TestServer;
  let alice: TestUser; // the author
  let bob: TestUser; // follows alice
  let carol: TestUser; // mentioned in the direct posts and one private post; does not follow
  let dave: TestUser; // a stranger
  let eve: TestUser; // followed alice, favourited and bookmarked, then lost access
  let appToken: string;

  /** Status ids by name, and marker words of the secret ones. */
  const st: Record<string, string> = {};
  const MARK = {
    priv: "zzprivword",
    privM: "zzprivmention",
    dm: "zzdmword",
    dmReply: "zzdmreply",
    privReply: "zzprivreply",
  } as const;
  type Secret = keyof typeof MARK;
  /** The private boost of `priv` by its author carries no text; it is hidden with `priv`. */
  const SEES: Record<Viewer, Secret[]> = {
    alice: ["priv", "privM", "dm", "dmReply", "privReply"],
    bob: ["priv", "privM", "privReply"],
    carol: ["privM", "dm", "dmReply"],
    dave: [],
    eve: [],
    anon: [],
    app: [],
  };
  const hiddenFrom = (v: Viewer): { ids: Set<string>; marks: string[] } => {
    const secrets = (Object.keys(MARK) as Secret[]).filter((k) => !SEES[v].includes(k));
    const ids = new Set(secrets.map((k) => st[k]));
    if (secrets.includes("priv")) ids.add(st.privBoost);
    return { ids, marks: secrets.map((k) => MARK[k]) };
  };

  const tokenOf = (v: Viewer): string | undefined =>
    v === "anon" ? undefined : v === "app" ? appToken : { alice, bob, carol, dave, eve }[v].token;
  const get = (v: Viewer, path: string) => s.request(path, { token: tokenOf(v) });
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as Json;
  };
  const act = (u: TestUser, id: string, action: string, json?: Record<string, unknown>) =>
    s.request(`/api/v1/statuses/${id}/${action}`, { method: "POST", token: u.token, json });

  /** Ids of every status-like object (one with `content`) in a response, boosts and nested ones included. */
  const statusIds = (body: unknown, out = new Set<string>()): Set<string> => {
    if (Array.isArray(body)) for (const x of body) statusIds(x, out);
    else if (body !== null && typeof body === "object") {
      const o = body as Record<string, unknown>;
      if ("content" in o && typeof o.id === "string") out.add(o.id);
      for (const v of Object.values(o)) statusIds(v, out);
    }
    return out;
  };
  /** Fails when the response shows `v` a status (or the words of one) they may not see. */
  const noLeak = (v: Viewer, body: unknown, where: string) => {
    const { ids, marks } = hiddenFrom(v);
    const shown = [...statusIds(body)].filter((id) => ids.has(id));
    const name = (id: string) => Object.entries(st).find(([, x]) => x === id)?.[0] ?? id;
    assert.deepEqual(shown.map(name), [], `${where}: ${v} was shown hidden statuses`);
    const text = JSON.stringify(body);
    for (const m of marks) assert.ok(!text.includes(m), `${where}: ${v} saw the words "${m}"`);
  };
  /** GET that must be 200 and leak nothing; answers the body. */
  const look = async (v: Viewer, path: string) => {
    const r = await get(v, path);
    assert.equal(r.status, 200, `${v} GET ${path}: ${JSON.stringify(r.body)}`);
    noLeak(v, r.body, `GET ${path}`);
    return r.body as Json;
  };
  const ALL: Viewer[] = ["alice", "bob", "carol", "dave", "eve", "anon", "app"];
  const may = (v: Viewer, name: string): boolean => {
    if (name === "privBoost") return SEES[v].includes("priv");
    return !(name in MARK) || SEES[v].includes(name as Secret);
  };
  const count = async (table: "favourites" | "bookmarks" | "statuses" | "status_pins" | "conversation_mutes") =>
    Number(
      (
        await s.ctx.db
          .selectFrom(table)
          .select((e) => e.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Waits until no job is waiting or running (fan-out, notifications). */
  // Delayed jobs (a poll's end) are not waited for.
  const drain = () => s.settle({ delayed: false });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    dave = await s.createUser("dave");
    eve = await s.createUser("eve");
    appToken = await s.appToken("read");
    await s.follow(bob, alice);
    await s.follow(eve, alice);

    const upload = async (u: TestUser) => {
      const r = await s.request("/api/v1/media", { method: "POST", token: u.token, json: { file: PNG } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.id as string;
    };

    st.pub = (await post(alice, { status: "hello world #leaktag", media_ids: [await upload(alice)] })).id;
    st.unl = (await post(alice, { status: "quiet #leaktag #zzquiettag", visibility: "unlisted" })).id;
    st.priv = (
      await post(alice, {
        status: `${MARK.priv} #leaktag #zzsecrettag`,
        spoiler_text: "cw",
        visibility: "private",
        media_ids: [await upload(alice)],
      })
    ).id;
    st.privM = (await post(alice, { status: `${MARK.privM} @carol #leaktag`, visibility: "private" })).id;
    st.dm = (
      await post(alice, {
        status: `${MARK.dm} @carol #leaktag`,
        visibility: "direct",
        media_ids: [await upload(alice)],
      })
    ).id;
    // Replies: private and direct ones under a public post, public ones under private and direct posts.
    st.privReply = (await post(alice, { status: MARK.privReply, visibility: "private", in_reply_to_id: st.pub })).id;
    st.dmReply = (
      await post(alice, { status: `${MARK.dmReply} @carol`, visibility: "direct", in_reply_to_id: st.pub })
    ).id;
    st.bobReply = (await post(bob, { status: "@alice public answer", in_reply_to_id: st.priv })).id;
    st.underDm = (await post(alice, { status: "public under a dm", in_reply_to_id: st.dm })).id;
    st.underBobReply = (await post(alice, { status: "deeper", in_reply_to_id: st.bobReply })).id;
    // The author boosts her private post (allowed: the boost stays private) and pins it.
    const boost = await act(alice, st.priv, "reblog");
    assert.equal(boost.status, 200, JSON.stringify(boost.body));
    st.privBoost = boost.body.id;
    assert.equal(boost.body.visibility, "private");
    st.pubBoost = (await act(alice, st.pub, "reblog")).body.id;
    for (const id of [st.pub, st.priv]) assert.equal((await act(alice, id, "pin")).status, 200);
    // Edits, so /history has something to show.
    const edit = await s.request(`/api/v1/statuses/${st.priv}`, {
      method: "PUT",
      token: alice.token,
      json: { status: `${MARK.priv} edited #leaktag #zzsecrettag`, spoiler_text: "cw" },
    });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    // Interactions while they still may see it.
    for (const u of [bob, eve]) {
      assert.equal((await act(u, st.priv, "favourite")).status, 200);
      assert.equal((await act(u, st.priv, "bookmark")).status, 200);
    }
    assert.equal((await act(carol, st.dm, "favourite")).status, 200);
    assert.equal((await act(carol, st.dm, "bookmark")).status, 200);
    await drain();
    // Eve stops following alice (no follow endpoints yet: remove the row).
    await s.ctx.db
      .deleteFrom("follows")
      .where("account_id", "=", eve.account.id)
      .where("target_account_id", "=", alice.account.id)
      .execute();
  });
  after(() => s.close());

  it("GET /api/v1/statuses/:id: 404 for whoever may not see it, the status for who may", async () => {
    for (const v of ALL) {
      for (const [name, id] of Object.entries(st)) {
        const r = await get(v, `/api/v1/statuses/${id}`);
        if (may(v, name)) {
          assert.equal(r.status, 200, `${v} ${name}: ${JSON.stringify(r.body)}`);
          noLeak(v, r.body, `status ${name}`);
        } else {
          assert.equal(r.status, 404, `${v} must not see ${name}`);
          assert.deepEqual(r.body, { error: "Record not found" });
        }
      }
    }
  });

  it("direct posts are not counted in statuses_count (as in Mastodon), so the count does not show them", async () => {
    const pub = await look("dave", `/api/v1/statuses/${st.pub}`);
    const notDirect = Object.keys(st).filter((k) => k !== "dm" && k !== "dmReply");
    assert.equal(pub.account.statuses_count, notDirect.filter((k) => k !== "bobReply").length);
  });

  it("GET /api/v1/statuses?id[]= leaves out what the caller may not see", async () => {
    const q = Object.values(st)
      .map((id) => `id[]=${id}`)
      .join("&");
    for (const v of ALL) {
      const body = await look(v, `/api/v1/statuses?${q}`);
      const expected = Object.entries(st).flatMap(([name, id]) => (may(v, name) ? [id] : []));
      assert.deepEqual(
        body.map((x: Json) => x.id),
        expected,
        v,
      );
    }
  });

  it("context hides private and direct ancestors and descendants", async () => {
    for (const v of ALL) {
      for (const [name, id] of Object.entries(st)) {
        const r = await get(v, `/api/v1/statuses/${id}/context`);
        if (!may(v, name)) {
          assert.equal(r.status, 404, `${v} context of ${name}`);
          continue;
        }
        assert.equal(r.status, 200);
        noLeak(v, r.body, `context of ${name}`);
      }
    }
    // As ancestor: bob's public reply to the private post.
    const ctxOf = async (v: Viewer, id: string) => (await look(v, `/api/v1/statuses/${id}/context`)) as Json;
    assert.deepEqual(
      (await ctxOf("bob", st.underBobReply)).ancestors.map((x: Json) => x.id),
      [st.priv, st.bobReply],
    );
    for (const v of ["carol", "dave", "eve", "anon", "app"] as Viewer[]) {
      assert.deepEqual(
        (await ctxOf(v, st.underBobReply)).ancestors.map((x: Json) => x.id),
        [st.bobReply],
        v,
      );
      assert.deepEqual((await ctxOf(v, st.bobReply)).ancestors, [], v);
    }
    assert.deepEqual(
      (await ctxOf("carol", st.underDm)).ancestors.map((x: Json) => x.id),
      [st.dm],
    );
    assert.deepEqual((await ctxOf("bob", st.underDm)).ancestors, []);
    // As descendants: the private and direct replies under the public post.
    const under = async (v: Viewer) =>
      ((await ctxOf(v, st.pub)).descendants as Json[]).map((x) => x.id).sort() as string[];
    assert.deepEqual(await under("alice"), [st.privReply, st.dmReply].sort());
    assert.deepEqual(await under("bob"), [st.privReply]);
    assert.deepEqual(await under("carol"), [st.dmReply]);
    for (const v of ["dave", "eve", "anon", "app"] as Viewer[]) assert.deepEqual(await under(v), [], v);
  });

  it("history, source, favourited_by and reblogged_by of a hidden status are 404", async () => {
    for (const v of ALL) {
      for (const [name, id] of Object.entries(st)) {
        for (const sub of ["history", "favourited_by", "reblogged_by"]) {
          const r = await get(v, `/api/v1/statuses/${id}/${sub}`);
          if (may(v, name)) {
            assert.equal(r.status, 200, `${v} ${sub} of ${name}: ${JSON.stringify(r.body)}`);
            noLeak(v, r.body, `${sub} of ${name}`);
          } else assert.equal(r.status, 404, `${v} ${sub} of ${name}`);
        }
        // The source needs a token (app or user) and, as in Mastodon, the status to be visible.
        const src = await get(v, `/api/v1/statuses/${id}/source`);
        if (v === "anon") assert.equal(src.status, 401);
        else if (may(v, name)) assert.equal(src.status, 200, `${v} source of ${name}: ${JSON.stringify(src.body)}`);
        else assert.equal(src.status, 404, `${v} source of ${name}: ${JSON.stringify(src.body)}`);
        noLeak(v, src.body, `source of ${name}`);
      }
    }
    const favs = await look("bob", `/api/v1/statuses/${st.priv}/favourited_by`);
    assert.deepEqual(favs.map((a: Json) => a.id).sort(), [bob.account.id, eve.account.id].sort());
  });

  it("nobody but the author boosts a private post; nobody boosts a direct one; strangers cannot act on them", async () => {
    const before = await count("statuses");
    // May see, may not boost: 403. May not see: 404.
    assert.equal((await act(bob, st.priv, "reblog")).status, 403);
    assert.equal((await act(bob, st.privBoost, "reblog")).status, 403);
    assert.equal((await act(carol, st.privM, "reblog")).status, 403);
    assert.equal((await act(carol, st.dm, "reblog")).status, 403);
    assert.equal((await act(alice, st.dm, "reblog")).status, 403);
    for (const u of [dave, eve]) {
      for (const id of [st.priv, st.privBoost, st.dm, st.privM]) {
        const r = await act(u, id, "reblog", { visibility: "public" });
        assert.equal(r.status, 404, `${u.account.username} boosts ${id}`);
        noLeak("dave", r.body, "reblog");
      }
    }
    assert.equal(await count("statuses"), before, "no boost stored");

    const tables = ["favourites", "bookmarks", "status_pins", "conversation_mutes"] as const;
    const counts = await Promise.all(tables.map(count));
    for (const u of [dave, eve]) {
      for (const id of [st.priv, st.dm, st.privM, st.dmReply]) {
        for (const action of ["favourite", "bookmark", "mute", "pin", "unmute", "unpin"]) {
          const r = await act(u, id, action);
          assert.equal(r.status, 404, `${u.account.username} ${action} ${id}: ${JSON.stringify(r.body)}`);
          noLeak("dave", r.body, action);
        }
      }
      // Replying to what one may not see is a not-found, and stores nothing.
      const reply = await s.request("/api/v1/statuses", {
        method: "POST",
        token: u.token,
        json: { status: "hi", in_reply_to_id: st.dm },
      });
      assert.equal(reply.status, 404);
    }
    assert.deepEqual(await Promise.all(tables.map(count)), counts, "nothing stored");
    assert.equal(await count("statuses"), before, "no reply stored");
  });

  it("undoing on a status one lost access to succeeds without showing it to strangers", async () => {
    // Eve had favourited and bookmarked: the undo works (Mastodon answers the status she acted on).
    const unfav = await act(eve, st.priv, "unfavourite");
    assert.equal(unfav.status, 200, JSON.stringify(unfav.body));
    // Dave never acted: the undo is a 404 that shows nothing.
    for (const action of ["unfavourite", "unbookmark", "unreblog", "unpin", "unmute"]) {
      const r = await act(dave, st.priv, action);
      assert.equal(r.status, 404, `${action}: ${JSON.stringify(r.body)}`);
    }
    // A thread mute is per thread: having muted the thread does not open its hidden posts.
    assert.equal((await act(bob, st.pub, "mute")).status, 200);
    const r = await act(bob, st.dmReply, "unmute");
    assert.equal(r.status, 404, JSON.stringify(r.body));
    assert.equal((await act(bob, st.pub, "unmute")).status, 200);
    // Put eve's favourite back for the lists test.
    await s.ctx.db
      .insertInto("favourites")
      .values({
        id: s.ctx.ids.next(),
        account_id: eve.account.id,
        status_id: st.priv,
        created_at: new Date().toISOString(),
      })
      .execute();
  });

  it("timelines: home, public, local, hashtag", async () => {
    await drain();
    for (const v of ALL) {
      for (const q of ["", "?local=true", "?only_media=true", "?remote=false&limit=40"]) {
        const body = await look(v, `/api/v1/timelines/public${q}`);
        for (const x of body) assert.equal(x.visibility, "public", `${v} public${q}`);
      }
      for (const tag of ["leaktag", "zzsecrettag", "leaktag?any[]=zzsecrettag", "leaktag?only_media=true"]) {
        const body = await look(v, `/api/v1/timelines/tag/${tag}`);
        for (const x of body) assert.equal(x.visibility, "public", `${v} tag ${tag}`);
      }
      assert.deepEqual(await look(v, "/api/v1/timelines/tag/zzsecrettag"), []);
      const home = await get(v, "/api/v1/timelines/home?limit=40");
      if (v === "anon") assert.equal(home.status, 401);
      else if (v === "app") assert.equal(home.status, 422);
      else {
        assert.equal(home.status, 200);
        noLeak(v, home.body, "home");
      }
    }
    // The mentioned account does not follow alice: the direct post is not pushed into her home.
    const carolHome = (await look("carol", "/api/v1/timelines/home?limit=40")).map((x: Json) => x.id);
    assert.ok(!carolHome.includes(st.dm));
    const bobHome = (await look("bob", "/api/v1/timelines/home?limit=40")).map((x: Json) => x.id);
    assert.ok(bobHome.includes(st.priv), "a follower has the private post at home");
    // Eve's feed still holds what was fanned out while she followed; it is filtered on read.
    const eveFeed = await s.ctx.db.selectFrom("feeds").selectAll().where("account_id", "=", eve.account.id).execute();
    assert.ok(eveFeed.length > 0);
  });

  it("account statuses: plain, pinned, tagged, only_media, exclude_*", async () => {
    const queries = [
      "",
      "?limit=40",
      "?pinned=true",
      "?tagged=leaktag",
      "?tagged=zzsecrettag",
      "?only_media=true",
      "?exclude_replies=true",
      "?exclude_reblogs=true",
    ];
    for (const v of ALL) {
      for (const q of queries) {
        const body = await look(v, `/api/v1/accounts/${alice.account.id}/statuses${q}`);
        const expected = (name: string) => may(v, name);
        for (const x of body) {
          const name = Object.entries(st).find(([, id]) => id === x.id)?.[0] ?? x.id;
          assert.ok(expected(name), `${v} ${q}: ${name}`);
        }
      }
    }
    const pinned = async (v: Viewer) =>
      (await look(v, `/api/v1/accounts/${alice.account.id}/statuses?pinned=true`)).map((x: Json) => x.id).sort();
    assert.deepEqual(await pinned("bob"), [st.pub, st.priv].sort());
    for (const v of ["carol", "dave", "eve", "anon", "app"] as Viewer[]) assert.deepEqual(await pinned(v), [st.pub]);
    const media = async (v: Viewer) =>
      (await look(v, `/api/v1/accounts/${alice.account.id}/statuses?only_media=true`)).map((x: Json) => x.id);
    assert.deepEqual(await media("alice"), [st.dm, st.priv, st.pub]);
    assert.deepEqual(await media("bob"), [st.priv, st.pub]);
    assert.deepEqual(await media("carol"), [st.dm, st.pub]);
    assert.deepEqual(await media("dave"), [st.pub]);
    assert.deepEqual(await look("dave", `/api/v1/accounts/${alice.account.id}/statuses?tagged=zzsecrettag`), []);
  });

  it("favourites and bookmarks of someone who lost access leave the post out", async () => {
    for (const list of ["favourites", "bookmarks"]) {
      const eveList = await look("eve", `/api/v1/${list}`);
      assert.deepEqual(eveList, [], list);
      const bobList = await look("bob", `/api/v1/${list}`);
      assert.deepEqual(
        bobList.map((x: Json) => x.id),
        [st.priv],
      );
      const carolList = await look("carol", `/api/v1/${list}`);
      assert.deepEqual(
        carolList.map((x: Json) => x.id),
        [st.dm],
      );
      assert.equal((await get("anon", `/api/v1/${list}`)).status, 401);
      assert.equal((await get("app", `/api/v1/${list}`)).status, 422);
    }
  });

  it("tags: the history of a tag used only in private or unlisted posts counts nothing", async () => {
    for (const [v, name] of ALL.flatMap(
      (v) =>
        [
          [v, "zzsecrettag"],
          [v, "zzquiettag"],
        ] as const,
    )) {
      const tag = await look(v, `/api/v1/tags/${name}`);
      assert.ok(
        tag.history.every((d: Json) => d.uses === "0" && d.accounts === "0"),
        JSON.stringify(tag.history),
      );
    }
  });

  it("search, conversations and grouped notifications show nothing hidden", async () => {
    await drain();
    const words = [...Object.values(MARK), "leaktag", "#leaktag", "zzsecrettag", "alice"];
    for (const v of ALL) {
      for (const q of words) {
        for (const type of ["", "&type=statuses", "&type=hashtags"]) {
          const r = await get(v, `/api/v2/search?q=${encodeURIComponent(q)}${type}&limit=40`);
          assert.ok(r.status < 500, `search ${q}: ${r.status}`);
          noLeak(v, r.body, `search ${q}${type}`);
        }
      }
      for (const path of [
        "/api/v1/conversations",
        "/api/v2/notifications",
        "/api/v2/notifications?expand_accounts=partial_avatars",
      ]) {
        const r = await get(v, path);
        if (v === "anon") assert.equal(r.status, 401, path);
        else if (v === "app") assert.equal(r.status, 422, path);
        else {
          assert.equal(r.status, 200, `${v} ${path}: ${JSON.stringify(r.body)}`);
          noLeak(v, r.body, path);
        }
      }
    }
    // The mentioned account has the direct post among her conversations and can search for it.
    const convs = await look("carol", "/api/v1/conversations");
    assert.ok(
      convs.some((c: Json) => [st.dm, st.dmReply].includes(c.last_status?.id)),
      JSON.stringify(convs),
    );
    const found = await look("alice", `/api/v2/search?q=${MARK.priv}&type=statuses`);
    assert.deepEqual(
      found.statuses.map((x: Json) => x.id),
      [st.priv],
    );
    // Someone who may search a hidden post's words finds nothing of it.
    const dave = await look("dave", `/api/v2/search?q=${MARK.priv}&type=statuses`);
    assert.deepEqual(dave.statuses, []);
  });

  it("a followers-only boost of a public post is seen by the booster's followers only", async () => {
    const boost = await act(bob, st.pub, "reblog", { visibility: "private" });
    assert.equal(boost.status, 200, JSON.stringify(boost.body));
    assert.equal(boost.body.visibility, "private");
    await drain();
    for (const v of ["alice", "carol", "dave", "eve", "anon", "app"] as Viewer[]) {
      assert.equal((await get(v, `/api/v1/statuses/${boost.body.id}`)).status, 404, v);
      const by = await look(v, `/api/v1/statuses/${st.pub}/reblogged_by`);
      assert.ok(!by.some((a: Json) => a.id === bob.account.id), `${v} learns of bob's private boost`);
      const bobs = await look(v, `/api/v1/accounts/${bob.account.id}/statuses`);
      assert.ok(!bobs.some((x: Json) => x.id === boost.body.id), v);
      const pub = await look(v, "/api/v1/timelines/public?limit=40");
      assert.ok(!pub.some((x: Json) => x.id === boost.body.id), v);
    }
    assert.equal((await get("bob", `/api/v1/statuses/${boost.body.id}`)).status, 200);
    assert.equal((await act(bob, st.pub, "unreblog")).status, 200);
  });

  it("notifications: only about what the recipient may see", async () => {
    await drain();
    for (const v of ["alice", "bob", "carol", "dave", "eve"] as Viewer[]) {
      const list = await look(v, "/api/v1/notifications?limit=80");
      for (const n of list) {
        const one = await get(v, `/api/v1/notifications/${n.id}`);
        assert.equal(one.status, 200);
        noLeak(v, one.body, "notification");
      }
    }
    const carolNotes = await look("carol", "/api/v1/notifications");
    assert.deepEqual(
      carolNotes
        .filter((n: Json) => n.type === "mention")
        .map((n: Json) => n.status.id)
        .sort(),
      [st.privM, st.dm, st.dmReply].sort(),
    );
    assert.deepEqual(await look("dave", "/api/v1/notifications"), []);
    // A direct post that is deleted takes its notifications with it.
    const del = await s.request(`/api/v1/statuses/${st.dmReply}`, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    await drain();
    const after = await look("carol", "/api/v1/notifications");
    assert.ok(!after.some((n: Json) => n.status?.id === st.dmReply));
    assert.equal((await get("app", "/api/v1/notifications")).status, 422);
    assert.equal((await get("anon", "/api/v1/notifications")).status, 401);
  });

  it("the poll of a private post is as hidden as the post", async () => {
    const r = await post(alice, {
      status: "private poll",
      visibility: "private",
      poll: { options: ["a", "b"], expires_in: 3600 },
    });
    const pollId = r.poll.id as string;
    const votes = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom("poll_votes")
            .select((e) => e.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await votes();
    for (const v of ["carol", "dave", "eve", "anon", "app"] as Viewer[]) {
      assert.equal((await get(v, `/api/v1/polls/${pollId}`)).status, 404, v);
    }
    for (const u of [carol, dave, eve]) {
      const vote = await s.request(`/api/v1/polls/${pollId}/votes`, {
        method: "POST",
        token: u.token,
        json: { choices: [0] },
      });
      assert.equal(vote.status, 404, u.account.username);
    }
    assert.equal(await votes(), before);
    assert.equal((await get("bob", `/api/v1/polls/${pollId}`)).status, 200);
  });

  it("scheduled statuses are their author's alone", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const r = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "zzscheduled later", visibility: "private", scheduled_at: at },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const id = r.body.id as string;
    for (const u of [bob, carol, dave]) {
      const list = await s.request("/api/v1/scheduled_statuses", { token: u.token });
      assert.equal(list.status, 200);
      assert.ok(!JSON.stringify(list.body).includes("zzscheduled"), u.account.username);
      assert.equal((await s.request(`/api/v1/scheduled_statuses/${id}`, { token: u.token })).status, 404);
      const put = await s.request(`/api/v1/scheduled_statuses/${id}`, {
        method: "PUT",
        token: u.token,
        json: { scheduled_at: new Date(Date.now() + 7_200_000).toISOString() },
      });
      assert.equal(put.status, 404);
      const del = await s.request(`/api/v1/scheduled_statuses/${id}`, { method: "DELETE", token: u.token });
      assert.equal(del.status, 404);
    }
    const mine = await s.request(`/api/v1/scheduled_statuses/${id}`, { token: alice.token });
    assert.equal(mine.status, 200);
    assert.equal(mine.body.scheduled_at, r.body.scheduled_at);
    assert.equal((await s.request(`/api/v1/scheduled_statuses/${id}`, { token: appToken })).status, 422);
  });
});
