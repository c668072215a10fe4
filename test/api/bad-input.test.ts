import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Malformed input on every built endpoint of statuses, timelines, notifications, markers and
 * media: the right 4xx with `{"error": ...}` (never a 500), and nothing stored.
 */

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

type Json = any;

/** Path ids that are not ids: not numeric, negative, fractional, past 64 bits. */
const NOT_IDS = ["abc", "12abc", "-1", "1.5", "9223372036854775808", "99999999999999999999999", "%20", "0x10"];
/** A well-formed id nothing has. */
const UNKNOWN = "1234567890123";
const TABLES = [
  "statuses",
  "status_edits",
  "mentions",
  "tags",
  "statuses_tags",
  "favourites",
  "bookmarks",
  "status_pins",
  "conversation_mutes",
  "feeds",
  "notifications",
  "markers",
  "media_attachments",
  "polls",
  "poll_votes",
  "scheduled_statuses",
] as const;

describe("bad input on the statuses, timelines, notifications, markers and media endpoints", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let statusId: string;
  let mediaId: string;

  /** A request with a raw body and content type (the helper always encodes its own). */
  const raw = async (path: string, opts: { method?: string; token?: string; type?: string; body?: string }) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.type) headers["content-type"] = opts.type;
    const res = await fetch(`${s.url}${path}`, { method: opts.method ?? "POST", headers, body: opts.body });
    const type = res.headers.get("content-type") ?? "";
    return { status: res.status, body: (type.includes("json") ? await res.json() : await res.text()) as Json };
  };
  /** Row counts of every table the endpoints write. */
  const snapshot = async () => {
    const out: Record<string, number> = {};
    for (const t of TABLES) {
      const r = await s.ctx.db
        .selectFrom(t)
        .select((e) => e.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      out[t] = Number(r.n);
    }
    const st = await s.ctx.db.selectFrom("statuses").selectAll().where("id", "=", statusId).executeTakeFirstOrThrow();
    const media = await s.ctx.db
      .selectFrom("media_attachments")
      .selectAll()
      .where("id", "=", mediaId)
      .executeTakeFirstOrThrow();
    return { counts: out, status: JSON.stringify(st), media: JSON.stringify(media) };
  };
  /** The answer is `status` with an `error` string. */
  const fails = (r: { status: number; body: Json }, status: number, where: string) => {
    assert.equal(r.status, status, `${where}: ${r.status} ${JSON.stringify(r.body)}`);
    assert.equal(typeof r.body?.error, "string", `${where}: ${JSON.stringify(r.body)}`);
  };
  /** Runs `fn` and checks the database did not change. */
  const storesNothing = async (fn: () => Promise<void>) => {
    await drain();
    const before = await snapshot();
    await fn();
    await drain();
    assert.deepEqual(await snapshot(), before, "nothing stored");
  };
  const drain = () => s.settle({ delayed: false, allowDead: true });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    await s.follow(bob, alice);
    const st = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "the one #tagged" },
    });
    assert.equal(st.status, 200);
    statusId = st.body.id;
    const m = await s.request("/api/v1/media", { method: "POST", token: alice.token, json: { file: PNG } });
    assert.equal(m.status, 200);
    mediaId = m.body.id;
    // A notification and a marker exist, so the lists have rows.
    await s.request(`/api/v1/statuses/${statusId}/favourite`, { method: "POST", token: bob.token });
    await drain();
  });
  after(() => s.close());

  it("POST /api/v1/statuses: bad fields are 422, bad bodies 400, nothing stored", async () => {
    const post = (json: Record<string, unknown>) =>
      s.request("/api/v1/statuses", { method: "POST", token: alice.token, json });
    await storesNothing(async () => {
      const cases: [Record<string, unknown>, number][] = [
        [{}, 422],
        [{ status: "" }, 422],
        [{ status: "   " }, 422],
        [{ status: null }, 422],
        [{ status: ["a", "b"] }, 422],
        [{ status: { a: 1 } }, 422],
        [{ status: true }, 422],
        [{ status: "x".repeat(501) }, 422],
        [{ status: "x".repeat(200_000) }, 422],
        [{ status: `${"x".repeat(480)} https://example.com/${"y".repeat(100)}` }, 422],
        [{ status: "x", spoiler_text: "y".repeat(500) }, 422],
        [{ status: "x", spoiler_text: ["a"] }, 422],
        [{ status: "x", visibility: "secret" }, 422],
        [{ status: "x", visibility: ["public"] }, 422],
        [{ status: "x", visibility: "PUBLIC" }, 422],
        [{ status: "x", visibility: 1 }, 422],
        [{ status: "x", sensitive: "maybe" }, 422],
        [{ status: "x", sensitive: ["true"] }, 422],
        [{ status: "x", language: ["en"] }, 422],
        [{ status: "x", language: { a: "en" } }, 422],
        [{ status: "x", in_reply_to_id: "abc" }, 404],
        [{ status: "x", in_reply_to_id: UNKNOWN }, 404],
        [{ status: "x", in_reply_to_id: "9223372036854775808" }, 404],
        [{ status: "x", in_reply_to_id: [statusId] }, 422],
        [{ status: "x", in_reply_to_id: { id: statusId } }, 422],
        [{ status: "x", media_ids: [{ a: 1 }] }, 422],
        [{ status: "x", media_ids: ["1", "2", "3", "4", "5"] }, 422],
        [{ status: "x", media_ids: { a: { b: 1 } } }, 422],
        [{ status: "x", poll: { options: ["a"], expires_in: 600 } }, 422],
        [{ status: "x", poll: { options: ["a", "b"], expires_in: 1 } }, 422],
        [{ status: "x", poll: { options: ["a", "b"], expires_in: 600 }, media_ids: [mediaId] }, 422],
        [{ status: "x", poll: { options: [["a"], "b"], expires_in: 600 } }, 422],
        [{ status: "x", scheduled_at: "not a date" }, 422],
        [{ status: "x", scheduled_at: ["2099-01-01T00:00:00Z"] }, 422],
        [{ status: "x", scheduled_at: new Date(Date.now() + 60_000).toISOString() }, 422],
      ];
      for (const [json, status] of cases) {
        const r = await post(json);
        const where = JSON.stringify(json).slice(0, 80);
        fails(r, status, where);
        if (status === 404) assert.equal(r.body.error, "The post you are trying to reply to does not appear to exist.");
      }
    });
  });

  it("the 500-character limit counts graphemes, the content warning, URLs as 23 and mentions by username", async () => {
    const post = (json: Record<string, unknown>) =>
      s.request("/api/v1/statuses", { method: "POST", token: alice.token, json });
    const ok = async (json: Record<string, unknown>, where: string) => {
      const r = await post(json);
      assert.equal(r.status, 200, `${where}: ${JSON.stringify(r.body).slice(0, 200)}`);
      await s.request(`/api/v1/statuses/${r.body.id}`, { method: "DELETE", token: alice.token });
    };
    await ok({ status: "👍🏽".repeat(500) }, "500 emoji with skin tones");
    await ok({ status: "é".normalize("NFD").repeat(500) }, "500 combined accents");
    await ok({ status: `${"x".repeat(470)} https://example.com/${"y".repeat(200)}` }, "a long URL counts 23");
    await ok({ status: `@bob@remote.example.org ${"x".repeat(495)}` }, "a remote mention counts as @bob");
    await ok({ status: "x".repeat(250), spoiler_text: "y".repeat(250) }, "250 + 250");
    await storesNothing(async () => {
      fails(await post({ status: "👍🏽".repeat(501) }), 422, "501 emoji");
      fails(await post({ status: "x".repeat(250), spoiler_text: "y".repeat(251) }), 422, "250 + 251");
    });
  });

  it("NUL characters (which PostgreSQL text cannot hold) never cause a 500", async () => {
    const nul = "a\u0000b";
    const calls = [
      () => s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: nul } }),
      () =>
        s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "x", spoiler_text: nul } }),
      () => s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "x", language: nul } }),
      () => s.request(`/api/v1/statuses/${statusId}`, { method: "PUT", token: alice.token, json: { status: nul } }),
      () => s.request(`/api/v1/media/${mediaId}`, { method: "PUT", token: alice.token, json: { description: nul } }),
      () => s.request("/api/v1/tags/a%00b"),
      () => s.request("/api/v1/timelines/tag/a%00b"),
      () => s.request("/api/v1/timelines/tag/tagged?any[]=a%00b&none[]=%00"),
      () => s.request(`/api/v1/accounts/${alice.account.id}/statuses?tagged=a%00b`),
      () => s.request("/api/v1/notifications?types[]=%00&exclude_types[]=%00", { token: alice.token }),
      () => s.request("/api/v1/markers?timeline[]=%00", { token: alice.token }),
      () => s.request("/api/v1/markers", { method: "POST", token: alice.token, json: { home: { last_read_id: nul } } }),
      () => s.request("/api/v1/statuses", { token: alice.token, form: { status: nul } }),
      () => s.request("/api/v1/statuses", { token: alice.token, form: { [`st${nul}atus`]: "x" } }),
      () => s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { [nul]: "x", status: "x" } }),
      () => s.request(`/api/v1/statuses?status=${encodeURIComponent(nul)}`, { method: "POST", token: alice.token }),
      () => s.request(`/api/v1/statuses/${statusId}/context?max_id=%00`),
    ];
    await storesNothing(async () => {
      for (const [i, call] of calls.entries()) fails(await call(), 400, `NUL case ${i}`);
    });
    const multipart = new FormData();
    multipart.append("status", nul);
    await storesNothing(async () => {
      fails(await s.request("/api/v1/statuses", { token: alice.token, multipart }), 400, "multipart NUL");
    });
  });

  it("POST /api/v1/statuses: a status with a bad language falls back to a valid one; unknown media are left out", async () => {
    const r = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "language test", language: "not-a-language" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.language, "en");
    const m = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "media test", media_ids: ["abc", UNKNOWN, "9223372036854775808"] },
    });
    assert.equal(m.status, 200, JSON.stringify(m.body));
    assert.deepEqual(m.body.media_attachments, []);
  });

  it("malformed bodies and content types are 400 (or blank parameters), never 500", async () => {
    await storesNothing(async () => {
      for (const path of [
        "/api/v1/statuses",
        `/api/v1/statuses/${statusId}/reblog`,
        "/api/v1/markers",
        "/api/v1/media",
        "/api/v2/media",
      ]) {
        const opts = { token: alice.token };
        fails(await raw(path, { ...opts, type: "application/json", body: "{not json" }), 400, `${path} bad JSON`);
        fails(await raw(path, { ...opts, type: "application/json", body: "[1,2]" }), 400, `${path} JSON array`);
        fails(await raw(path, { ...opts, type: "application/json", body: '"text"' }), 400, `${path} JSON string`);
        fails(await raw(path, { ...opts, type: "application/json", body: "null" }), 400, `${path} JSON null`);
        fails(
          await raw(path, { ...opts, type: "multipart/form-data", body: "garbage" }),
          400,
          `${path} multipart without boundary`,
        );
        fails(
          await raw(path, { ...opts, type: "application/x-www-form-urlencoded", body: "a[b][c][d][e][f][g]=1" }),
          400,
          `${path} nested too deep`,
        );
      }
      // An unknown content type: the body is not read, so the post is blank (Rails does the same).
      fails(
        await raw("/api/v1/statuses", { token: alice.token, type: "text/plain", body: "status=hello" }),
        422,
        "text/plain",
      );
      fails(await raw("/api/v1/statuses", { token: alice.token }), 422, "no body");
      // Form arrays where strings are expected.
      const form = await s.request("/api/v1/statuses", {
        token: alice.token,
        form: { "status[]": ["a", "b"], visibility: "public" },
      });
      fails(form, 422, "status[] in a form");
      const vis = await s.request("/api/v1/statuses", {
        token: alice.token,
        form: { status: "a", "visibility[]": ["public"] },
      });
      fails(vis, 422, "visibility[] in a form");
    });
  });

  it("status ids that are not ids or do not exist are 404 on every status endpoint", async () => {
    await storesNothing(async () => {
      const gets = ["", "/context", "/history", "/source", "/favourited_by", "/reblogged_by"];
      const posts = [
        "favourite",
        "unfavourite",
        "reblog",
        "unreblog",
        "bookmark",
        "unbookmark",
        "mute",
        "unmute",
        "pin",
        "unpin",
      ];
      for (const id of [...NOT_IDS, UNKNOWN]) {
        for (const sub of gets) {
          fails(await s.request(`/api/v1/statuses/${id}${sub}`, { token: alice.token }), 404, `GET ${id}${sub}`);
        }
        for (const action of posts) {
          fails(
            await s.request(`/api/v1/statuses/${id}/${action}`, { method: "POST", token: alice.token }),
            404,
            `POST ${id}/${action}`,
          );
        }
        fails(await s.request(`/api/v1/statuses/${id}`, { method: "DELETE", token: alice.token }), 404, `DELETE ${id}`);
        fails(
          await s.request(`/api/v1/statuses/${id}`, { method: "PUT", token: alice.token, json: { status: "x" } }),
          404,
          `PUT ${id}`,
        );
      }
    });
  });

  it("GET /api/v1/statuses?id[]=: junk ids are skipped, too many are 422, objects are skipped", async () => {
    const ok = await s.request(`/api/v1/statuses?id[]=abc&id[]=${UNKNOWN}&id[]=9223372036854775808&id[]=${statusId}`);
    assert.equal(ok.status, 200);
    assert.deepEqual(
      ok.body.map((x: Json) => x.id),
      [statusId],
    );
    const many = Array.from({ length: 21 }, (_, i) => `id[]=${i + 1}`).join("&");
    fails(await s.request(`/api/v1/statuses?${many}`), 422, "21 ids");
    const nested = await s.request(`/api/v1/statuses?id[a][b]=1&id[]=${statusId}`);
    assert.ok(nested.status < 500, JSON.stringify(nested.body));
    const none = await s.request("/api/v1/statuses");
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, []);
  });

  it("PUT /api/v1/statuses/:id: bad fields are 422 and change nothing", async () => {
    const put = (json: Record<string, unknown>, token = alice.token) =>
      s.request(`/api/v1/statuses/${statusId}`, { method: "PUT", token, json });
    await storesNothing(async () => {
      const cases: Record<string, unknown>[] = [
        { status: ["a"] },
        { status: { a: 1 } },
        { status: "x".repeat(501) },
        { status: "" },
        { spoiler_text: ["a"] },
        { sensitive: "maybe" },
        { language: ["en"] },
        { media_ids: [{ a: 1 }] },
        { media_ids: ["1", "2", "3", "4", "5"] },
        { status: "x", poll: { options: ["a"], expires_in: 600 } },
      ];
      for (const json of cases) fails(await put(json), 422, JSON.stringify(json).slice(0, 60));
      fails(await put({ status: "not mine" }, bob.token), 404, "someone else's post");
      fails(
        await raw(`/api/v1/statuses/${statusId}`, {
          method: "PUT",
          token: alice.token,
          type: "application/json",
          body: "{",
        }),
        400,
        "bad JSON",
      );
    });
  });

  it("an edit that changes nothing stores nothing (no history entry, no notification), as in Mastodon", async () => {
    const current = await s.request(`/api/v1/statuses/${statusId}/source`, { token: alice.token });
    const same = { status: current.body.text, spoiler_text: current.body.spoiler_text };
    await storesNothing(async () => {
      for (const json of [same, {}, { ...same, language: "en", sensitive: false }]) {
        const r = await s.request(`/api/v1/statuses/${statusId}`, { method: "PUT", token: alice.token, json });
        assert.equal(r.status, 200, `${JSON.stringify(json)}: ${JSON.stringify(r.body)}`);
      }
    });
  });

  it("DELETE with a bad delete_media is 422 and deletes nothing", async () => {
    await storesNothing(async () => {
      fails(
        await s.request(`/api/v1/statuses/${statusId}?delete_media=maybe`, { method: "DELETE", token: alice.token }),
        422,
        "delete_media",
      );
      fails(await s.request(`/api/v1/statuses/${statusId}`, { method: "DELETE", token: bob.token }), 404, "not mine");
    });
  });

  it("POST /:id/reblog: a bad visibility is 422 and boosts nothing", async () => {
    await storesNothing(async () => {
      for (const visibility of ["direct", "secret", ["public"], { a: 1 }, 3]) {
        fails(
          await s.request(`/api/v1/statuses/${statusId}/reblog`, {
            method: "POST",
            token: bob.token,
            json: { visibility },
          }),
          422,
          JSON.stringify(visibility),
        );
      }
    });
  });

  it("favourited_by and reblogged_by take a read:accounts token (Mastodon's scope) as well as read:statuses", async () => {
    for (const sub of ["favourited_by", "reblogged_by"]) {
      for (const scopes of ["read:accounts", "read:statuses", "read"]) {
        const token = await s.appToken(scopes);
        const r = await s.request(`/api/v1/statuses/${statusId}/${sub}`, { token });
        assert.equal(r.status, 200, `${sub} ${scopes}`);
      }
      fails(await s.request(`/api/v1/statuses/${statusId}/${sub}`, { token: await s.appToken("write") }), 403, sub);
      fails(await s.request(`/api/v1/statuses/${statusId}/${sub}`, { token: "nonsense" }), 401, sub);
    }
  });

  it("pagination: a bad limit is 400, junk cursors are ignored, on every list", async () => {
    const lists = [
      `/api/v1/statuses/${statusId}/favourited_by`,
      `/api/v1/statuses/${statusId}/reblogged_by`,
      `/api/v1/accounts/${alice.account.id}/statuses`,
      "/api/v1/favourites",
      "/api/v1/bookmarks",
      "/api/v1/timelines/home",
      "/api/v1/timelines/public",
      "/api/v1/timelines/tag/tagged",
      "/api/v1/notifications",
      "/api/v1/notifications/unread_count",
    ];
    await storesNothing(async () => {
      for (const path of lists) {
        for (const limit of ["abc", "-1", "1.5", "1e3", "[]"]) {
          fails(await s.request(`${path}?limit=${limit}`, { token: bob.token }), 400, `${path} limit=${limit}`);
        }
        for (const q of [
          "max_id=abc",
          "since_id=-5",
          "min_id=9223372036854775808",
          "max_id[]=1",
          "limit=99999999999999999999",
          "limit=0",
          "limit[]=1",
        ]) {
          const r = await s.request(`${path}?${q}`, { token: bob.token });
          assert.equal(r.status, 200, `${path}?${q}: ${JSON.stringify(r.body)}`);
        }
        // An empty page still has a Link header (the issue asks for it on every list).
        if (!path.endsWith("unread_count")) {
          const empty = await s.request(`${path}?max_id=1`, { token: bob.token });
          assert.deepEqual(empty.body, [], path);
          assert.match(empty.headers.get("link") ?? "", /rel="prev"/, `${path}: Link on an empty page`);
        }
      }
    });
  });

  it("account statuses: unknown accounts 404, bad booleans 422, a tagged array 422", async () => {
    for (const id of [...NOT_IDS, UNKNOWN]) {
      fails(await s.request(`/api/v1/accounts/${id}/statuses`), 404, id);
    }
    const base = `/api/v1/accounts/${alice.account.id}/statuses`;
    for (const q of ["pinned=maybe", "exclude_replies=2", "only_media=yesno", "exclude_reblogs=[]"]) {
      fails(await s.request(`${base}?${q}`), 422, q);
    }
    // Bracketed keys are other parameters: ignored.
    for (const q of [
      "exclude_reblogs[]=true",
      "tagged[]=a",
      "tagged=",
      "tagged=%E2%9C%93",
      "tagged=no%20such",
      `tagged=${"x".repeat(1000)}`,
    ]) {
      const r = await s.request(`${base}?${q}`);
      assert.equal(r.status, 200, q);
      assert.ok(Array.isArray(r.body));
    }
  });

  it("timelines: bad booleans are 422; odd or malformed hashtags never 500", async () => {
    for (const path of ["/api/v1/timelines/public", "/api/v1/timelines/tag/tagged"]) {
      for (const q of ["local=maybe", "remote=2", "only_media=x", "local[]=true"]) {
        fails(await s.request(`${path}?${q}`), 422, `${path}?${q}`);
      }
    }
    // Asking for both local and remote is asking for everything (Mastodon's PublicFeed).
    for (const path of ["/api/v1/timelines/public", "/api/v1/timelines/tag/tagged"]) {
      const both = await s.request(`${path}?local=true&remote=true`);
      assert.ok(
        both.body.some((x: Json) => x.id === statusId),
        `${path}: local and remote together leave nothing out`,
      );
    }
    for (const tag of ["%ZZ", "%E2%9C", "a%20b", "x".repeat(2000), "%23tagged", "tagged%2F..%2F"]) {
      const r = await s.request(`/api/v1/timelines/tag/${tag}`);
      assert.ok(r.status === 200 || r.status === 404, `${tag}: ${r.status} ${JSON.stringify(r.body)}`);
      if (r.status === 404) assert.equal(typeof r.body.error, "string");
    }
    for (const q of ["any[a][b]=x", "all=x&all[]=y", "none[]=&none[]=%20", "any[]=1&any[]=2&any[]=3&any[]=4&any[]=5"]) {
      const r = await s.request(`/api/v1/timelines/tag/tagged?${q}`);
      assert.equal(r.status, 200, `${q}: ${JSON.stringify(r.body)}`);
    }
  });

  it("tags: a name that cannot be a hashtag is 404", async () => {
    for (const name of ["a%20b", "%ZZ", "x".repeat(1000), "-", "a.b"]) {
      fails(await s.request(`/api/v1/tags/${name}`), 404, name);
    }
    assert.equal((await s.request("/api/v1/tags/Tagged")).status, 200, "Tagged");
    assert.equal((await s.request("/api/v1/tags/caf%C3%A9")).status, 200, "café");
  });

  it("notifications: bad ids 404, junk filters ignored, nothing dismissed", async () => {
    await storesNothing(async () => {
      for (const id of [...NOT_IDS, UNKNOWN]) {
        fails(await s.request(`/api/v1/notifications/${id}`, { token: alice.token }), 404, id);
        fails(
          await s.request(`/api/v1/notifications/${id}/dismiss`, { method: "POST", token: alice.token }),
          404,
          `dismiss ${id}`,
        );
      }
      // Bob's notification id is not alice's to read or dismiss.
      const [mine] = (await s.request("/api/v1/notifications", { token: alice.token })).body as Json[];
      assert.ok(mine, "alice has a notification");
      fails(await s.request(`/api/v1/notifications/${mine.id}`, { token: bob.token }), 404, "someone else's");
      fails(
        await s.request(`/api/v1/notifications/${mine.id}/dismiss`, { method: "POST", token: bob.token }),
        404,
        "dismiss someone else's",
      );
      for (const q of [
        "types[]=bogus",
        "types=favourite",
        "exclude_types[]=bogus&exclude_types[]=",
        "types[a][b]=x",
        "account_id=abc",
        "account_id[]=1",
        "account_id=9223372036854775808",
      ]) {
        for (const path of ["/api/v1/notifications", "/api/v1/notifications/unread_count"]) {
          const r = await s.request(`${path}?${q}`, { token: alice.token });
          assert.equal(r.status, 200, `${path}?${q}: ${JSON.stringify(r.body)}`);
        }
      }
    });
  });

  it("scheduled statuses: ids that are not ids or do not exist are 404", async () => {
    await storesNothing(async () => {
      for (const id of [...NOT_IDS, UNKNOWN]) {
        const path = `/api/v1/scheduled_statuses/${id}`;
        fails(await s.request(path, { token: alice.token }), 404, `GET ${id}`);
        fails(
          await s.request(path, { method: "PUT", token: alice.token, json: { scheduled_at: "2099-01-01T00:00:00Z" } }),
          404,
          `PUT ${id}`,
        );
        fails(await s.request(path, { method: "DELETE", token: alice.token }), 404, `DELETE ${id}`);
      }
    });
  });

  it("markers: a bad last_read_id is 422 and saves nothing; unknown timelines are ignored", async () => {
    await storesNothing(async () => {
      for (const json of [
        { home: { last_read_id: "abc" } },
        { home: { last_read_id: "" } },
        { home: { last_read_id: ["1"] } },
        { home: { last_read_id: { a: 1 } } },
        { home: { last_read_id: "9223372036854775808" } },
        { notifications: { last_read_id: -1 } },
        { home: { last_read_id: "1" }, notifications: { last_read_id: "x" } },
      ]) {
        fails(
          await s.request("/api/v1/markers", { method: "POST", token: alice.token, json }),
          422,
          JSON.stringify(json),
        );
      }
      // A scalar or a list where a timeline's hash belongs is dropped, as Rails' `permit` does.
      for (const json of [{}, { bogus: { last_read_id: "1" } }, { home: "1" }, { home: ["1"] }]) {
        const r = await s.request("/api/v1/markers", { method: "POST", token: alice.token, json });
        assert.equal(r.status, 200, `${JSON.stringify(json)}: ${JSON.stringify(r.body)}`);
      }
      for (const q of ["timeline[]=bogus", "timeline=home", "timeline[a][b]=x"]) {
        const r = await s.request(`/api/v1/markers?${q}`, { token: alice.token });
        assert.equal(r.status, 200, q);
      }
    });
  });

  it("media: bad files, descriptions and focus are 422 and store nothing", async () => {
    await storesNothing(async () => {
      for (const version of ["v1", "v2"]) {
        const path = `/api/${version}/media`;
        for (const json of [
          {},
          { file: "" },
          { file: "not a data uri" },
          { file: ["a"] },
          { file: { a: 1 } },
          { file: "data:image/png;base64,AAAA" },
          { file: PNG, description: "d".repeat(1501) },
          { file: PNG, description: ["a"] },
          { file: PNG, focus: "abc" },
          { file: PNG, focus: "2,0" },
          { file: PNG, focus: "0.1" },
          { file: PNG, thumbnail: "x" },
        ]) {
          fails(
            await s.request(path, { method: "POST", token: alice.token, json }),
            422,
            `${path} ${JSON.stringify(json).slice(0, 60)}`,
          );
        }
        const form = new FormData();
        form.append("file", new Blob([new Uint8Array([1, 2, 3, 4])]), "x.png");
        fails(await s.request(path, { method: "POST", token: alice.token, multipart: form }), 422, "junk bytes");
      }
      for (const id of [...NOT_IDS, UNKNOWN]) {
        fails(await s.request(`/api/v1/media/${id}`, { token: alice.token }), 404, `GET ${id}`);
        fails(
          await s.request(`/api/v1/media/${id}`, { method: "PUT", token: alice.token, json: { description: "x" } }),
          404,
          `PUT ${id}`,
        );
        fails(await s.request(`/api/v1/media/${id}`, { method: "DELETE", token: alice.token }), 404, `DELETE ${id}`);
      }
      // Someone else's upload.
      fails(await s.request(`/api/v1/media/${mediaId}`, { token: bob.token }), 404, "bob GET");
      fails(
        await s.request(`/api/v1/media/${mediaId}`, { method: "PUT", token: bob.token, json: { description: "x" } }),
        404,
        "bob PUT",
      );
      fails(await s.request(`/api/v1/media/${mediaId}`, { method: "DELETE", token: bob.token }), 404, "bob DELETE");
      for (const json of [{ description: "d".repeat(1501) }, { focus: "x,y" }, { description: { a: 1 } }]) {
        fails(
          await s.request(`/api/v1/media/${mediaId}`, { method: "PUT", token: alice.token, json }),
          422,
          JSON.stringify(json).slice(0, 60),
        );
      }
    });
  });
});
