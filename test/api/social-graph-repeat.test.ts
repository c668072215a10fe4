import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Audit of issue 4: every repeatable operation called twice. The second call is harmless: it
 * answers what the first did (or Mastodon's error for something gone) and changes nothing
 * (rows, counters, notifications, feeds compared before and after it).
 */
describe("social graph: each repeatable operation twice", () => {
  let s: TestServer;
  let n = 0;
  const user = (name: string) => s.createUser(`${name}${++n}`);

  const call = (u: TestUser, path: string, method = "POST", json?: unknown) =>
    s.request(path, { method, token: u.token, json });
  const ok = async <T = any>(u: TestUser, path: string, method = "GET", json?: unknown): Promise<T> => {
    const r = await call(u, path, method, json);
    assert.equal(r.status, 200, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const drain = async () => {
    for (let i = 0; i < 500; i++) {
      const state = await s.ctx.queue.state();
      assert.ok(!state.counts.some((c) => c.state === "dead" && c.count > 0), "a job died");
      if (state.counts.every((c) => c.count === 0)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail("jobs never finished");
  };

  /** Everything issue 4 stores, as plain rows without volatile columns, for two accounts. */
  const TABLES = [
    "follows",
    "follow_requests",
    "blocks",
    "mutes",
    "account_pins",
    "account_notes",
    "tag_follows",
    "featured_tags",
    "lists",
    "list_accounts",
    "list_feeds",
    "feeds",
    "notifications",
    "filters",
    "filter_keywords",
    "filter_statuses",
  ] as const;
  const VOLATILE = new Set(["updated_at", "last_status_at"]);
  const snapshot = async () => {
    await drain();
    const out: Record<string, unknown> = {};
    for (const t of TABLES) {
      const rows = await (s.ctx.db as any).selectFrom(t).selectAll().execute();
      out[t] = rows
        .map((r: Record<string, unknown>) =>
          JSON.stringify(
            Object.entries(r)
              .filter(([k]) => !VOLATILE.has(k))
              .map(([k, v]) => [k, String(v)]),
          ),
        )
        .sort();
    }
    const counts = await s.ctx.db
      .selectFrom("accounts")
      .select(["id", "followers_count", "following_count"])
      .orderBy("id")
      .execute();
    out.counts = counts.map((c) => `${c.id}:${c.followers_count}:${c.following_count}`);
    return out;
  };
  /**
   * Calls `path` twice: the first answer is `first` (a status), the second `second` (default:
   * the same status and the same body), and the second changes nothing stored.
   */
  const twice = async (
    u: TestUser,
    path: string,
    opts: { method?: string; json?: unknown; first?: number; second?: number; sameBody?: boolean } = {},
  ) => {
    const method = opts.method ?? "POST";
    const a = await call(u, path, method, opts.json);
    assert.equal(a.status, opts.first ?? 200, `first ${method} ${path}: ${a.status} ${JSON.stringify(a.body)}`);
    const before = await snapshot();
    const b = await call(u, path, method, opts.json);
    assert.equal(b.status, opts.second ?? opts.first ?? 200, `second ${method} ${path}: ${JSON.stringify(b.body)}`);
    if ((opts.sameBody ?? true) && b.status === a.status) assert.deepEqual(b.body, a.body, `${method} ${path}`);
    assert.deepEqual(await snapshot(), before, `second ${method} ${path} changed something`);
    return { first: a.body, second: b.body };
  };

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("follow, unfollow, remove_from_followers; follow requests authorize and reject", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await ok(bob, "/api/v1/statuses", "POST", { status: "bob posts" });
    const acct = (x: TestUser, action: string) => `/api/v1/accounts/${x.account.id}/${action}`;

    const { first } = await twice(alice, acct(bob, "follow"));
    assert.equal(first.following, true);
    const notes = await ok(bob, "/api/v1/notifications");
    assert.equal(notes.filter((x: { type: string }) => x.type === "follow").length, 1);
    // Following again with other options changes only them.
    const changed = await ok(alice, acct(bob, "follow"), "POST", { reblogs: false, notify: true });
    assert.equal(changed.showing_reblogs, false);
    assert.equal(changed.notifying, true);
    assert.equal((await ok(alice, "/api/v1/accounts/verify_credentials")).following_count, 1);

    await ok(alice, acct(bob, "pin"), "POST");
    const unf = await twice(alice, acct(bob, "unfollow"));
    assert.equal(unf.first.following, false);
    assert.equal(unf.first.endorsed, false);
    assert.equal((await ok(bob, "/api/v1/accounts/verify_credentials")).followers_count, 0);

    await ok(alice, acct(bob, "follow"), "POST");
    const rem = await twice(bob, acct(alice, "remove_from_followers"));
    assert.equal(rem.first.followed_by, false);

    // A locked account: a request, asked twice, one notification; authorize and reject twice.
    const carol = await user("carol");
    await ok(carol, "/api/v1/accounts/update_credentials", "PATCH", { locked: true });
    const req = await twice(alice, acct(carol, "follow"));
    assert.equal(req.first.requested, true);
    const dave = await user("dave");
    await ok(dave, acct(carol, "follow"), "POST");
    await drain();
    const requests = await ok(carol, "/api/v1/follow_requests");
    assert.deepEqual(requests.map((x: { id: string }) => x.id).sort(), [alice.account.id, dave.account.id].sort());
    assert.equal(
      (await ok(carol, "/api/v1/notifications")).filter((x: { type: string }) => x.type === "follow_request").length,
      2,
    );
    const seen = await ok(carol, `/api/v1/accounts/relationships?id[]=${alice.account.id}`);
    assert.equal(seen[0].requested_by, true);
    // As Mastodon (FollowRequest.find_by!): the second authorize or reject finds nothing, a 404.
    const auth = await twice(carol, `/api/v1/follow_requests/${alice.account.id}/authorize`, { second: 404 });
    assert.equal(auth.first.followed_by, true);
    await twice(carol, `/api/v1/follow_requests/${dave.account.id}/reject`, { second: 404 });
    assert.deepEqual(await ok(carol, "/api/v1/follow_requests"), []);
    // Rejecting the one just authorized is a 404 too, and keeps the follow.
    assert.equal((await call(carol, `/api/v1/follow_requests/${alice.account.id}/reject`)).status, 404);
    assert.equal((await ok(alice, `/api/v1/accounts/relationships?id[]=${carol.account.id}`))[0].following, true);
    // Withdrawing a request twice.
    const erin = await user("erin");
    await ok(erin, acct(carol, "follow"), "POST");
    const wd = await twice(erin, acct(carol, "unfollow"));
    assert.equal(wd.first.requested, false);
  });

  it("block, unblock, mute, unmute", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const acct = (action: string) => `/api/v1/accounts/${bob.account.id}/${action}`;
    await ok(alice, acct("follow"), "POST");
    await ok(bob, acct("follow").replace(bob.account.id, alice.account.id), "POST");
    const b = await twice(alice, acct("block"));
    assert.equal(b.first.blocking, true);
    assert.equal(b.first.following, false);
    assert.equal((await ok(alice, "/api/v1/blocks")).length, 1);
    const ub = await twice(alice, acct("unblock"));
    assert.equal(ub.first.blocking, false);

    const m = await twice(alice, acct("mute"), { json: { notifications: false } });
    assert.equal(m.first.muting, true);
    assert.equal(m.first.muting_notifications, false);
    assert.equal((await ok(alice, "/api/v1/mutes")).length, 1);
    const um = await twice(alice, acct("unmute"));
    assert.equal(um.first.muting, false);
    assert.deepEqual(await ok(alice, "/api/v1/mutes"), []);
  });

  it("endorse, unendorse, pin, unpin and the note", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const acct = (action: string) => `/api/v1/accounts/${bob.account.id}/${action}`;
    await ok(alice, acct("follow"), "POST");
    for (const [on, off] of [
      ["endorse", "unendorse"],
      ["pin", "unpin"],
    ]) {
      const e = await twice(alice, acct(on));
      assert.equal(e.first.endorsed, true);
      assert.equal((await ok(alice, "/api/v1/endorsements")).length, 1);
      const u = await twice(alice, acct(off));
      assert.equal(u.first.endorsed, false);
      assert.deepEqual(await ok(alice, "/api/v1/endorsements"), []);
    }
    const note = await twice(alice, acct("note"), { json: { comment: "met at the fair" } });
    assert.equal(note.first.note, "met at the fair");
    const cleared = await twice(alice, acct("note"), { json: { comment: "" } });
    assert.equal(cleared.first.note, "");
  });

  it("tag follow, unfollow, feature, unfeature; featured_tags", async () => {
    const alice = await user("alice");
    const f = await twice(alice, "/api/v1/tags/Audit/follow");
    assert.equal(f.first.following, true);
    assert.equal((await ok(alice, "/api/v1/followed_tags")).length, 1);
    const u = await twice(alice, "/api/v1/tags/audit/unfollow");
    assert.equal(u.first.following, false);
    assert.deepEqual(await ok(alice, "/api/v1/followed_tags"), []);

    const fe = await twice(alice, "/api/v1/tags/audit/feature");
    assert.equal(fe.first.featuring, true);
    assert.equal((await ok(alice, "/api/v1/featured_tags")).length, 1);
    const ufe = await twice(alice, "/api/v1/tags/audit/unfeature");
    assert.equal(ufe.first.featuring, false);
    assert.deepEqual(await ok(alice, "/api/v1/featured_tags"), []);

    // POST /api/v1/featured_tags twice answers the one featured tag (Mastodon's
    // CreateFeaturedTagService finds it); DELETE twice is a 404 the second time.
    const ft = await twice(alice, "/api/v1/featured_tags", { json: { name: "audit" } });
    assert.equal(ft.first.name.toLowerCase(), "audit");
    assert.equal((await ok(alice, "/api/v1/featured_tags")).length, 1);
    await twice(alice, `/api/v1/featured_tags/${ft.first.id}`, { method: "DELETE", second: 404 });
  });

  it("list members added and removed twice", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    await ok(bob, "/api/v1/statuses", "POST", { status: "bob posts" });
    await ok(alice, `/api/v1/accounts/${bob.account.id}/follow`, "POST");
    const list = await ok(alice, "/api/v1/lists", "POST", { title: "friends" });
    const path = `/api/v1/lists/${list.id}/accounts`;
    // Mastodon answers a second add of a member with a 422 (its uniqueness validation).
    const add = await twice(alice, path, { json: { account_ids: [bob.account.id] }, second: 422 });
    assert.match(add.second.error, /^Validation failed/);
    assert.equal((await ok(alice, path)).length, 1);
    assert.equal((await ok(alice, `/api/v1/timelines/list/${list.id}`)).length, 1);
    await twice(alice, path, { method: "DELETE", json: { account_ids: [bob.account.id] } });
    assert.deepEqual(await ok(alice, path), []);
    assert.deepEqual(await ok(alice, `/api/v1/timelines/list/${list.id}`), []);
  });

  it("bad input to the social-graph endpoints is a 4xx and changes nothing", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const A = alice.account.id;
    const B = bob.account.id;
    const BIG = "99999999999999999999";
    await ok(alice, `/api/v1/accounts/${B}/follow`, "POST");
    const list = await ok(alice, "/api/v1/lists", "POST", { title: "x" });
    const filter = await ok(alice, "/api/v2/filters", "POST", {
      title: "x",
      context: ["home"],
      keywords_attributes: [{ keyword: "k" }],
    });
    const before = await snapshot();
    const probes: [string, string, unknown?, number?][] = [
      ["POST", `/api/v1/accounts/${BIG}/follow`],
      ["POST", `/api/v1/accounts/${B}/follow`, { languages: ["zzzzzz"] }],
      ["POST", `/api/v1/accounts/${B}/follow`, { reblogs: "maybe" }],
      ["POST", `/api/v1/accounts/${A}/follow`],
      ["POST", `/api/v1/accounts/${A}/block`],
      ["POST", `/api/v1/accounts/${A}/mute`],
      ["POST", `/api/v1/accounts/${B}/mute`, { duration: [1] }],
      ["POST", `/api/v1/accounts/${A}/pin`],
      ["POST", `/api/v1/accounts/${B}/note`, { comment: "x".repeat(2001) }],
      ["POST", `/api/v1/follow_requests/${B}/authorize`],
      ["POST", `/api/v1/follow_requests/abc/reject`],
      ["POST", "/api/v1/lists", { title: "" }],
      ["POST", "/api/v1/lists", { title: "t", replies_policy: "bogus" }],
      ["PUT", `/api/v1/lists/${list.id}`, { replies_policy: "bogus", title: "renamed" }],
      ["POST", `/api/v1/lists/${list.id}/accounts`, { account_ids: [BIG] }],
      ["POST", `/api/v1/lists/${list.id}/accounts`, { account_ids: [B, BIG] }],
      ["POST", "/api/v2/filters", { title: "t", context: ["bogus"] }],
      ["POST", "/api/v2/filters", { title: "t", context: ["home"], filter_action: "nuke" }],
      ["PUT", `/api/v2/filters/${filter.id}`, { title: "y", keywords_attributes: [{ id: BIG, _destroy: true }] }],
      ["POST", `/api/v2/filters/${filter.id}/statuses`, { status_id: BIG }],
      ["POST", "/api/v1/filters", { phrase: "x", context: ["nope"] }],
      ["POST", "/api/v1/tags/!!!/follow"],
      ["POST", "/api/v1/tags/!!!/feature"],
      ["POST", "/api/v1/featured_tags", { name: "!!!" }],
      ["DELETE", `/api/v1/featured_tags/${BIG}`],
      ["POST", "/api/v1/reports", { account_id: B, category: "bogus" }],
      ["POST", "/api/v1/reports", { account_id: A }],
      ["GET", `/api/v1/accounts/${B}/followers?limit=abc`],
      ["GET", "/api/v1/directory?offset=-1"],
    ];
    for (const [method, path, json] of probes) {
      const r = await call(alice, path, method, json);
      assert.ok(r.status >= 400 && r.status < 500, `${method} ${path} ${JSON.stringify(json)}: ${r.status}`);
      assert.equal(typeof r.body.error, "string");
    }
    assert.deepEqual(await snapshot(), before);
    // An offset past what the databases take is an empty page, not a 500.
    assert.deepEqual(await ok(alice, `/api/v1/directory?offset=${BIG}`), []);
    assert.deepEqual(await ok(alice, `/api/v2/suggestions?offset=${BIG}`), []);
  });

  it("the same operation five times at once: no 5xx, the state of one call", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const B = bob.account.id;
    const st = await ok(bob, "/api/v1/statuses", "POST", { status: "x" });
    const list = await ok(alice, "/api/v1/lists", "POST", { title: "l" });
    const filter = await ok(alice, "/api/v2/filters", "POST", { title: "f", context: ["home"] });
    const ops: [string, string, unknown?][] = [
      ["POST", `/api/v1/accounts/${B}/follow`],
      ["POST", `/api/v1/accounts/${B}/pin`],
      ["POST", `/api/v1/accounts/${B}/note`, { comment: "n" }],
      ["POST", `/api/v1/lists/${list.id}/accounts`, { account_ids: [B] }],
      ["POST", "/api/v1/tags/together/follow"],
      ["POST", "/api/v1/tags/together/feature"],
      ["POST", "/api/v1/featured_tags", { name: "together2" }],
      ["POST", `/api/v2/filters/${filter.id}/statuses`, { status_id: st.id }],
      ["POST", `/api/v1/accounts/${B}/mute`],
      ["POST", `/api/v1/accounts/${B}/block`],
    ];
    for (const [method, path, json] of ops) {
      const rs = await Promise.all([1, 2, 3, 4, 5].map(() => call(alice, path, method, json)));
      assert.ok(
        rs.every((r) => r.status < 500),
        `${method} ${path}: ${rs.map((r) => `${r.status} ${JSON.stringify(r.body)}`)}`,
      );
      assert.ok(
        rs.some((r) => r.status === 200),
        `${method} ${path}`,
      );
    }
    assert.equal((await ok(alice, `/api/v1/lists/${list.id}/accounts`)).length, 0, "the block ended the membership");
    assert.equal((await ok(alice, "/api/v1/followed_tags")).length, 1);
    assert.equal((await ok(alice, "/api/v1/featured_tags")).length, 2);
    assert.equal((await ok(alice, `/api/v2/filters/${filter.id}/statuses`)).length, 1);
    assert.equal((await ok(alice, "/api/v1/blocks")).length, 1);
    assert.equal((await ok(alice, "/api/v1/mutes")).length, 1);
    const counts = await ok(bob, "/api/v1/accounts/verify_credentials");
    assert.equal(counts.followers_count, 0);
  });

  it("follows, blocks, endorsements and lists racing between two accounts stay consistent", async () => {
    const bad: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await user("racea");
      const b = await user("raceb");
      const c = await user("racec");
      await ok(c, "/api/v1/accounts/update_credentials", "PATCH", { locked: true });
      const B = b.account.id;
      await ok(a, `/api/v1/accounts/${B}/follow`, "POST");
      const list = await ok(a, "/api/v1/lists", "POST", { title: "l" });
      const rs = await Promise.all([
        call(a, `/api/v1/lists/${list.id}/accounts`, "POST", { account_ids: [B] }),
        call(a, `/api/v1/accounts/${B}/unfollow`),
        call(a, `/api/v1/accounts/${B}/pin`),
        call(b, `/api/v1/accounts/${a.account.id}/block`),
        call(a, `/api/v1/accounts/${B}/follow`),
        call(b, `/api/v1/accounts/${a.account.id}/follow`),
      ]);
      await ok(a, `/api/v1/accounts/${c.account.id}/follow`, "POST");
      const rs2 = await Promise.all([
        call(c, `/api/v1/follow_requests/${a.account.id}/authorize`),
        call(c, `/api/v1/follow_requests/${a.account.id}/reject`),
        call(a, `/api/v1/accounts/${c.account.id}/unfollow`),
        call(c, `/api/v1/accounts/${a.account.id}/block`),
      ]);
      for (const r of [...rs, ...rs2]) if (r.status >= 500) bad.push(`${i}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    assert.deepEqual(bad, []);
    await drain();
    // No follow beside a block, no endorsement without its follow, no list member not followed,
    // and the counters match the rows.
    const db = s.ctx.db;
    const followsWithBlocks = await db
      .selectFrom("blocks")
      .innerJoin("follows", (j) =>
        j.on((eb) =>
          eb.or([
            eb.and([
              eb("follows.account_id", "=", eb.ref("blocks.account_id")),
              eb("follows.target_account_id", "=", eb.ref("blocks.target_account_id")),
            ]),
            eb.and([
              eb("follows.account_id", "=", eb.ref("blocks.target_account_id")),
              eb("follows.target_account_id", "=", eb.ref("blocks.account_id")),
            ]),
          ]),
        ),
      )
      .select("blocks.id")
      .execute();
    assert.deepEqual(followsWithBlocks, []);
    const orphanPins = await db
      .selectFrom("account_pins")
      .select("id")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("follows")
              .select("follows.id")
              .whereRef("follows.account_id", "=", "account_pins.account_id")
              .whereRef("follows.target_account_id", "=", "account_pins.target_account_id"),
          ),
        ),
      )
      .execute();
    assert.deepEqual(orphanPins, []);
    const orphanMembers = await db
      .selectFrom("list_accounts")
      .innerJoin("lists", "lists.id", "list_accounts.list_id")
      .select("list_accounts.id")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("follows")
              .select("follows.id")
              .whereRef("follows.account_id", "=", "lists.account_id")
              .whereRef("follows.target_account_id", "=", "list_accounts.account_id"),
          ),
        ),
      )
      .execute();
    assert.deepEqual(orphanMembers, []);
    const accounts = await db.selectFrom("accounts").select(["id", "followers_count", "following_count"]).execute();
    const follows = await db.selectFrom("follows").select(["account_id", "target_account_id"]).execute();
    for (const acc of accounts) {
      const id = String(acc.id);
      assert.equal(Number(acc.followers_count), follows.filter((f) => String(f.target_account_id) === id).length);
      assert.equal(Number(acc.following_count), follows.filter((f) => String(f.account_id) === id).length);
    }
  });

  it("a filter keyword destroyed twice, a filter status and a filter deleted twice", async () => {
    const alice = await user("alice");
    const filter = await ok(alice, "/api/v2/filters", "POST", {
      title: "f",
      context: ["home"],
      keywords_attributes: [{ keyword: "one" }, { keyword: "two" }],
    });
    const [one] = filter.keywords;
    const body = { keywords_attributes: [{ id: one.id, _destroy: true }] };
    const first = await call(alice, `/api/v2/filters/${filter.id}`, "PUT", body);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      first.body.keywords.map((k: { keyword: string }) => k.keyword),
      ["two"],
    );
    const before = await snapshot();
    const second = await call(alice, `/api/v2/filters/${filter.id}`, "PUT", body);
    // Destroying a keyword that is already gone is Mastodon's RecordNotFound from the nested
    // attributes (a 404), and nothing changes: not the title, not the other keyword.
    assert.equal(second.status, 404, JSON.stringify(second.body));
    assert.deepEqual(await snapshot(), before);
    const withTitle = { title: "renamed", keywords_attributes: [{ id: one.id, _destroy: true }] };
    assert.equal((await call(alice, `/api/v2/filters/${filter.id}`, "PUT", withTitle)).status, 404);
    assert.deepEqual(await snapshot(), before);
    assert.equal((await ok(alice, `/api/v2/filters/${filter.id}`)).title, "f");

    await twice(alice, `/api/v2/filters/keywords/${one.id}`, { method: "DELETE", first: 404 });
    const [two] = first.body.keywords;
    await twice(alice, `/api/v1/filters/keywords/${two.id}`, { method: "DELETE", second: 404 });

    const st = await ok(alice, "/api/v1/statuses", "POST", { status: "filter me" });
    const fs = await ok(alice, `/api/v2/filters/${filter.id}/statuses`, "POST", { status_id: st.id });
    await twice(alice, `/api/v2/filters/statuses/${fs.id}`, { method: "DELETE", second: 404 });
    await twice(alice, `/api/v2/filters/${filter.id}`, { method: "DELETE", second: 404 });
  });
});
