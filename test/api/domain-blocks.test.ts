import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("user-level domain blocks", () => {
  let s: TestServer;
  let n = 0;

  const user = (name: string, scopes?: string) => s.createUser(`${name}${++n}`, scopes ? { scopes } : {});
  const get = async (u: TestUser | undefined, path: string) => {
    const r = await s.request(path, { token: u?.token });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const ids = (body: { id: string }[]) => body.map((x) => x.id);
  const block = (u: TestUser, domain: unknown) =>
    s.request("/api/v1/domain_blocks", { method: "POST", token: u.token, json: { domain } });
  const unblock = (u: TestUser, domain: unknown) =>
    s.request("/api/v1/domain_blocks", { method: "DELETE", token: u.token, json: { domain } });
  const stored = async (u: TestUser) =>
    (
      await s.ctx.db
        .selectFrom("account_domain_blocks")
        .select("domain")
        .where("account_id", "=", u.account.id)
        .execute()
    ).map((r) => r.domain);
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  /** Waits until every queued job (fan-out, notifications) has run. */
  const drain = () => s.settle();

  /** A remote account (federation would create it), inserted directly. */
  const remote = async (username: string, domain: string, extra: Record<string, unknown> = {}) => {
    const id = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.accounts.insert({
      id,
      username,
      domain,
      uri: `https://${domain}/users/${username}`,
      url: `https://${domain}/@${username}`,
      created_at: now,
      updated_at: now,
      ...extra,
    });
    return id;
  };
  /** A status by a remote account, through the statuses repository. */
  const remoteStatus = async (accountId: string, fields: Record<string, unknown> = {}) => {
    const id = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.statuses.insert({
      id,
      uri: `https://remote.test/statuses/${id}`,
      url: null,
      account_id: accountId,
      text: "",
      content: "<p>from afar</p>",
      visibility: "public",
      sensitive: false,
      local: false,
      created_at: now,
      updated_at: now,
      ...fields,
    });
    return id;
  };
  const followRow = (from: string, to: string) =>
    s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: from,
      target_account_id: to,
      created_at: new Date().toISOString(),
    });
  const requestRow = (from: string, to: string) =>
    s.ctx.repos.follows.insertRequest({
      id: s.ctx.ids.next(),
      account_id: from,
      target_account_id: to,
      show_reblogs: true,
      notify: false,
      languages: null,
      created_at: new Date().toISOString(),
    });
  const counts = async (id: string) => {
    const a = await s.ctx.db
      .selectFrom("accounts")
      .select(["following_count", "followers_count"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return { following: Number(a.following_count), followers: Number(a.followers_count) };
  };
  const relationship = async (u: TestUser, id: string) =>
    (await get(u, `/api/v1/accounts/relationships?id[]=${id}`))[0];

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("blocks, lists and unblocks domains, normalised, each call repeatable", async () => {
    const alice = await user("alice");
    assert.deepEqual(await get(alice, "/api/v1/domain_blocks"), []);
    const r = await block(alice, "Example.COM");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    assert.deepEqual((await block(alice, "example.com")).body, {}, "blocking again succeeds");
    assert.deepEqual((await block(alice, "EXAMPLE.com.")).body, {}, "a trailing dot is the same domain");
    // International names are stored in punycode, as Mastodon; the two spellings are one block.
    assert.equal((await block(alice, "Bücher.example")).status, 200);
    assert.equal((await block(alice, "xn--bcher-kva.example")).status, 200);
    // Form parameters work as JSON does.
    const form = await s.request("/api/v1/domain_blocks", {
      method: "POST",
      token: alice.token,
      form: { domain: "third.example" },
    });
    assert.equal(form.status, 200);
    assert.deepEqual(await get(alice, "/api/v1/domain_blocks"), [
      "third.example",
      "xn--bcher-kva.example",
      "example.com",
    ]);
    assert.equal((await stored(alice)).length, 3);

    // Paged by row id, newest first, with a Link header.
    const first = await s.request("/api/v1/domain_blocks?limit=2", { token: alice.token });
    assert.deepEqual(first.body, ["third.example", "xn--bcher-kva.example"]);
    const link = String(first.headers.get("link"));
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    assert.ok(next, link);
    assert.match(link, /rel="prev"/);
    const second = await s.request(new URL(next).pathname + new URL(next).search, { token: alice.token });
    assert.deepEqual(second.body, ["example.com"]);
    assert.equal((await s.request("/api/v1/domain_blocks?limit=500", { token: alice.token })).body.length, 3);

    // Unblocking answers {} and is repeatable; it goes by the normalised domain too.
    assert.deepEqual((await unblock(alice, "EXAMPLE.COM")).body, {});
    assert.deepEqual((await unblock(alice, "example.com")).body, {});
    assert.deepEqual((await unblock(alice, "never-blocked.example")).body, {});
    const q = await s.request("/api/v1/domain_blocks?domain=b%C3%BCcher.example", {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(q.status, 200, "the domain may come in the query string");
    assert.deepEqual(await get(alice, "/api/v1/domain_blocks"), ["third.example"]);
    // Another account's blocks are its own.
    const bob = await user("bob");
    assert.deepEqual(await get(bob, "/api/v1/domain_blocks"), []);
  });

  it("refuses bad domains and the server's own with 422, storing nothing", async () => {
    const alice = await user("alice");
    const own = s.ctx.config.localDomain.replace(/:\d+$/, "");
    const bad: unknown[] = [
      "",
      "http://x",
      "https://example.com/path",
      "a b",
      "example.com:8080",
      "user@example.com",
      "a..b",
      "under_score.example",
      `${"a".repeat(64)}.example`,
      `${"abcdefghij.".repeat(26)}com`,
      ["example.com"],
      { x: 1 },
      null,
      own,
      own.toUpperCase(),
    ];
    for (const domain of bad) {
      const r = await block(alice, domain);
      assert.equal(r.status, 422, `${JSON.stringify(domain)}: ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.error, "string");
      const d = await unblock(alice, domain);
      assert.ok(d.status === 422 || d.status === 200, `${JSON.stringify(domain)} on DELETE: ${d.status}`);
    }
    for (const domain of ["", "http://x", "a b", `${"a".repeat(64)}.example`]) {
      assert.equal((await unblock(alice, domain)).status, 422, JSON.stringify(domain));
      const p = await s.request(`/api/v1/domain_blocks/preview?domain=${encodeURIComponent(domain)}`, {
        token: alice.token,
      });
      assert.equal(p.status, 422, JSON.stringify(domain));
    }
    assert.equal((await s.request("/api/v1/domain_blocks", { method: "POST", token: alice.token })).status, 422);
    assert.equal((await s.request("/api/v1/domain_blocks/preview", { token: alice.token })).status, 422);
    assert.deepEqual(await stored(alice), [], "bad input stores nothing");
  });

  it("scopes: read:blocks to list, write:blocks to change and preview; 401 without a token, 422 for an app token", async () => {
    const reader = await user("reader", "read");
    const readBlocks = await user("readblocks", "read:blocks");
    const writeBlocks = await user("writeblocks", "write:blocks");
    const follow = await user("follow", "follow");
    const app = await s.appToken("read write follow");
    const cases = [
      { method: "GET", path: "/api/v1/domain_blocks", ok: [reader, readBlocks, follow] },
      { method: "POST", path: "/api/v1/domain_blocks?domain=scoped.example", ok: [writeBlocks, follow] },
      { method: "DELETE", path: "/api/v1/domain_blocks?domain=scoped.example", ok: [writeBlocks, follow] },
      { method: "GET", path: "/api/v1/domain_blocks/preview?domain=scoped.example", ok: [writeBlocks, follow] },
    ];
    for (const c of cases) {
      assert.equal((await s.request(c.path, { method: c.method })).status, 401, `${c.method} ${c.path}`);
      assert.equal((await s.request(c.path, { method: c.method, token: app })).status, 422, `${c.method} ${c.path}`);
      for (const u of [reader, readBlocks, writeBlocks, follow]) {
        const r = await s.request(c.path, { method: c.method, token: u.token });
        assert.equal(r.status, c.ok.includes(u) ? 200 : 403, `${c.method} ${c.path} as ${u.account.username}`);
      }
    }
    assert.deepEqual(await stored(reader), []);
  });

  it("ends follows and follow requests both ways with the domain's accounts, counted; preview counts them", async () => {
    const alice = await user("alice");
    const me = alice.account.id;
    const r1 = await remote(`r1_${n}`, "follows.example");
    const r2 = await remote(`r2_${n}`, "follows.example");
    const r3 = await remote(`r3_${n}`, "follows.example");
    const r4 = await remote(`r4_${n}`, "follows.example");
    const other = await remote(`o_${n}`, "elsewhere.example");
    const local = await user("local");
    await followRow(me, r1);
    await followRow(me, r2);
    await followRow(r1, me);
    await followRow(me, other);
    await followRow(other, me);
    await s.follow(alice, local);
    await requestRow(me, r3);
    await requestRow(r4, me);
    assert.deepEqual(await counts(me), { following: 4, followers: 2 });

    const preview = async (domain: string) => get(alice, `/api/v1/domain_blocks/preview?domain=${domain}`);
    assert.deepEqual(await preview("follows.example"), { following_count: 2, followers_count: 1 });
    assert.deepEqual(await preview("FOLLOWS.example"), { following_count: 2, followers_count: 1 });
    assert.deepEqual(await preview("nobody.example"), { following_count: 0, followers_count: 0 });
    assert.equal((await relationship(alice, r1)).domain_blocking, false);

    const list = (await s.request("/api/v1/lists", { method: "POST", token: alice.token, json: { title: "far" } }))
      .body;
    const added = await s.request(`/api/v1/lists/${list.id}/accounts`, {
      method: "POST",
      token: alice.token,
      json: { account_ids: [r1, other] },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));

    assert.equal((await block(alice, "Follows.Example")).status, 200);
    assert.deepEqual(ids(await get(alice, `/api/v1/lists/${list.id}/accounts`)), [other], "members leave the lists");
    const f = await s.ctx.repos.follows.followedAmong(me, [r1, r2, other, local.account.id]);
    assert.deepEqual([...f].sort(), [other, local.account.id].sort());
    assert.deepEqual(await counts(me), { following: 2, followers: 1 });
    assert.deepEqual(await counts(r1), { following: 0, followers: 0 });
    assert.deepEqual(await counts(r2), { following: 0, followers: 0 });
    const requests = await s.ctx.db
      .selectFrom("follow_requests")
      .selectAll()
      .where((eb) => eb.or([eb("account_id", "=", me), eb("target_account_id", "=", me)]))
      .execute();
    assert.deepEqual(requests, [], "follow requests both ways are gone");
    assert.deepEqual(await preview("follows.example"), { following_count: 0, followers_count: 0 });

    const rel = await relationship(alice, r1);
    assert.equal(rel.domain_blocking, true);
    assert.equal(rel.following, false);
    assert.equal(rel.followed_by, false);
    assert.equal((await relationship(alice, other)).domain_blocking, false);
    assert.equal((await relationship(alice, local.account.id)).domain_blocking, false);
    // Following an account of a blocked domain is refused, as Mastodon's FollowService.
    const again = await s.request(`/api/v1/accounts/${r1}/follow`, { method: "POST", token: alice.token });
    assert.equal(again.status, 403);
    // Blocking again changes nothing more; unblocking does not bring the follows back.
    assert.equal((await block(alice, "follows.example")).status, 200);
    assert.deepEqual(await counts(me), { following: 2, followers: 1 });
    // An account of the domain followed all the same (a follow made before the block was seen)
    // overrides it, as in Mastodon's home and notification filters.
    const hidden = await remoteStatus(r1);
    const shownAll = await remoteStatus(r2);
    await followRow(me, r2);
    const pub = ids(await get(alice, "/api/v1/timelines/public?limit=40"));
    assert.ok(!pub.includes(hidden));
    assert.ok(pub.includes(shownAll));
    assert.equal((await relationship(alice, r2)).domain_blocking, true);
    await unblock(alice, "follows.example");
    assert.equal((await relationship(alice, r1)).domain_blocking, false);
    assert.equal((await relationship(alice, r1)).following, false);
    const followed = await s.request(`/api/v1/accounts/${r1}/follow`, { method: "POST", token: alice.token });
    assert.equal(followed.status, 200, "after unblocking, following is possible again");
  });

  it("hides the domain's accounts and statuses from the blocker on every surface", async () => {
    const bob = await user("bob");
    const carol = await user("carol");
    const dave = await user("dave");
    const domain = `spam${n}.example`;
    const spammer = await remote(`spammer${n}`, domain, { discoverable: true, indexable: true });
    const friend = await remote(`friend${n}`, `fine${n}.example`, { discoverable: true, indexable: true });
    await s.follow(bob, carol);
    await s.follow(dave, carol);
    await followRow(spammer, carol.account.id);
    await followRow(friend, carol.account.id);

    const tag = `spamtag${n}`;
    const spamPost = await remoteStatus(spammer, { text: `zebrafish${n} #${tag}`, content: `<p>zebrafish${n}</p>` });
    const friendPost = await remoteStatus(friend, { text: `zebrafish${n} friendly` });
    const [tagRow] = await s.ctx.db.transaction().execute(async (trx) => {
      const tags = await s.ctx.repos.statuses.findOrCreateTags(
        [{ name: tag, display: tag }],
        () => s.ctx.ids.next(),
        new Date().toISOString(),
        trx,
      );
      await s.ctx.repos.statuses.setStatusTags(spamPost, [tags[0].id], trx);
      return tags;
    });
    assert.ok(tagRow);
    const bobPost = await post(bob, { status: "bob writes" });
    const spamReply = await remoteStatus(spammer, {
      in_reply_to_id: bobPost.id,
      in_reply_to_account_id: bob.account.id,
    });
    const spamBoostOfBob = await remoteStatus(spammer, { reblog_of_id: bobPost.id, content: "" });
    const now = new Date().toISOString();
    await s.ctx.repos.statusInteractions.add("favourites", {
      id: s.ctx.ids.next(),
      account_id: spammer,
      status_id: bobPost.id,
      created_at: now,
    });
    await s.ctx.repos.statusInteractions.add("favourites", {
      id: s.ctx.ids.next(),
      account_id: friend,
      status_id: bobPost.id,
      created_at: now,
    });
    const notify = async (from: string, activity: string) => {
      const id = s.ctx.ids.next();
      await s.ctx.repos.notifications.insert({
        id,
        account_id: bob.account.id,
        from_account_id: from,
        type: "favourite",
        status_id: bobPost.id,
        activity_id: activity,
        group_key: `ungrouped-${id}`,
        created_at: new Date().toISOString(),
      });
      return id;
    };
    const oldSpamNotification = await notify(spammer, s.ctx.ids.next());
    await drain();

    // Bob blocks the domain: existing notifications from it are deleted.
    assert.equal((await block(bob, domain)).status, 200);
    const rows = await s.ctx.db
      .selectFrom("notifications")
      .select("id")
      .where("account_id", "=", bob.account.id)
      .execute();
    assert.ok(!rows.map((r) => String(r.id)).includes(oldSpamNotification));
    // Ones that come later (federation would deliver them) are left out when read, v1 and v2.
    const newSpam = await notify(spammer, s.ctx.ids.next());
    const fromFriend = await notify(friend, s.ctx.ids.next());
    const v1 = ids(await get(bob, "/api/v1/notifications"));
    assert.ok(!v1.includes(newSpam));
    assert.ok(v1.includes(fromFriend));
    const v2 = await get(bob, "/api/v2/notifications?grouped_types[]=mention");
    const v2Accounts = (v2.accounts as { id: string }[]).map((a) => a.id);
    assert.ok(!v2Accounts.includes(spammer));
    assert.ok(v2Accounts.includes(friend));
    assert.equal((await get(bob, "/api/v1/notifications/unread_count")).count, v1.length);

    // A boost by an account bob follows of a post from the blocked domain stays out of his home.
    const carolBoost = (await s.request(`/api/v1/statuses/${spamPost}/reblog`, { method: "POST", token: carol.token }))
      .body;
    const carolBoostFriend = (
      await s.request(`/api/v1/statuses/${friendPost}/reblog`, { method: "POST", token: carol.token })
    ).body;
    await drain();
    const bobFeed = await s.ctx.repos.feeds.page(bob.account.id, { limit: 800 });
    assert.ok(!bobFeed.includes(carolBoost.id), "fan-out leaves it out");
    assert.ok(bobFeed.includes(carolBoostFriend.id));
    const daveFeed = await s.ctx.repos.feeds.page(dave.account.id, { limit: 800 });
    assert.ok(daveFeed.includes(carolBoost.id), "others still get it");
    const bobHome = ids(await get(bob, "/api/v1/timelines/home"));
    assert.ok(!bobHome.includes(carolBoost.id));
    assert.ok(bobHome.includes(carolBoostFriend.id));
    assert.ok(ids(await get(dave, "/api/v1/timelines/home")).includes(carolBoost.id));

    // List timelines: a list of carol leaves the boost out too.
    const list = (await s.request("/api/v1/lists", { method: "POST", token: bob.token, json: { title: "carol" } }))
      .body;
    await s.request(`/api/v1/lists/${list.id}/accounts`, {
      method: "POST",
      token: bob.token,
      json: { account_ids: [carol.account.id] },
    });
    const listTl = ids(await get(bob, `/api/v1/timelines/list/${list.id}`));
    assert.ok(!listTl.includes(carolBoost.id));
    assert.ok(listTl.includes(carolBoostFriend.id));

    // Public and hashtag timelines.
    const pub = ids(await get(bob, "/api/v1/timelines/public?limit=40"));
    assert.ok(!pub.includes(spamPost));
    assert.ok(pub.includes(friendPost));
    assert.ok(ids(await get(dave, "/api/v1/timelines/public?limit=40")).includes(spamPost));
    assert.deepEqual(ids(await get(bob, `/api/v1/timelines/tag/${tag}`)), []);
    assert.deepEqual(ids(await get(dave, `/api/v1/timelines/tag/${tag}`)), [spamPost]);

    // Threads.
    const ctxBob = await get(bob, `/api/v1/statuses/${bobPost.id}/context`);
    assert.deepEqual(ids(ctxBob.descendants), []);
    assert.deepEqual(ids((await get(dave, `/api/v1/statuses/${bobPost.id}/context`)).descendants), [spamReply]);

    // Who favourited and boosted.
    const favs = ids(await get(bob, `/api/v1/statuses/${bobPost.id}/favourited_by`));
    assert.deepEqual(favs, [friend]);
    assert.deepEqual(
      new Set(ids(await get(dave, `/api/v1/statuses/${bobPost.id}/favourited_by`))),
      new Set([friend, spammer]),
    );
    assert.deepEqual(ids(await get(bob, `/api/v1/statuses/${bobPost.id}/reblogged_by`)), []);
    assert.deepEqual(ids(await get(dave, `/api/v1/statuses/${bobPost.id}/reblogged_by`)), [spammer]);
    assert.ok(spamBoostOfBob);

    // Followers lists.
    const followers = ids(await get(bob, `/api/v1/accounts/${carol.account.id}/followers`));
    assert.ok(!followers.includes(spammer));
    assert.ok(followers.includes(friend));
    assert.ok(ids(await get(dave, `/api/v1/accounts/${carol.account.id}/followers`)).includes(spammer));

    // Search.
    const found = await get(bob, `/api/v2/search?q=zebrafish${n}&type=statuses`);
    assert.deepEqual(ids(found.statuses), [friendPost]);
    const foundDave = await get(dave, `/api/v2/search?q=zebrafish${n}&type=statuses`);
    assert.deepEqual(new Set(ids(foundDave.statuses)), new Set([friendPost, spamPost]));

    // Directory.
    const dir = ids(await get(bob, "/api/v1/directory?order=new&limit=80"));
    assert.ok(!dir.includes(spammer));
    assert.ok(dir.includes(friend));
    assert.ok(ids(await get(dave, "/api/v1/directory?order=new&limit=80")).includes(spammer));

    // Suggestions (friends of friends: carol, whom bob and dave follow, follows both).
    await followRow(carol.account.id, spammer);
    await followRow(carol.account.id, friend);
    const suggested = async (u: TestUser) =>
      ((await get(u, "/api/v2/suggestions?limit=80")) as { account: { id: string } }[]).map((x) => x.account.id);
    const bobSuggestions = await suggested(bob);
    assert.ok(!bobSuggestions.includes(spammer));
    assert.ok(bobSuggestions.includes(friend));
    assert.ok((await suggested(dave)).includes(spammer));

    // A status asked for by id is still shown (Mastodon's StatusPolicy knows no domain blocks).
    assert.equal((await s.request(`/api/v1/statuses/${spamPost}`, { token: bob.token })).status, 200);

    // Unblocking shows them again.
    await unblock(bob, domain);
    assert.ok(ids(await get(bob, "/api/v1/timelines/public?limit=40")).includes(spamPost));
    assert.deepEqual(ids((await get(bob, `/api/v1/statuses/${bobPost.id}/context`)).descendants), [spamReply]);
    assert.ok(ids(await get(bob, "/api/v1/notifications")).includes(newSpam));
  });
  it("jobs: no notifications from the domain are created, followed hashtags do not bring its posts", async () => {
    const bob = await user("bob");
    const dave = await user("dave");
    const domain = `jobs${n}.example`;
    const spammer = await remote(`spammer${n}`, domain);
    const friend = await remote(`friend${n}`, `jobsfine${n}.example`);
    assert.equal((await block(bob, domain)).status, 200);

    // A mention by an account of the blocked domain notifies dave, not bob.
    const mentionBoth = async (author: string) => {
      const id = await remoteStatus(author, { text: "hi" });
      await s.ctx.db.transaction().execute((trx) =>
        s.ctx.repos.statuses.insertMentions(
          [bob, dave].map((u) => ({
            id: s.ctx.ids.next(),
            status_id: id,
            account_id: u.account.id,
            created_at: new Date().toISOString(),
          })),
          trx,
        ),
      );
      await s.ctx.queue.enqueue("notifications.create", { type: "mention", statusId: id });
      return id;
    };
    const spamMention = await mentionBoth(spammer);
    const friendMention = await mentionBoth(friend);
    await drain();
    const rows = async (u: TestUser) =>
      (
        await s.ctx.db.selectFrom("notifications").select("status_id").where("account_id", "=", u.account.id).execute()
      ).map((r) => String(r.status_id));
    assert.deepEqual(await rows(bob), [friendMention]);
    assert.deepEqual(new Set(await rows(dave)), new Set([spamMention, friendMention]));

    // Both follow a hashtag; fan-out of the domain's post with it reaches dave's home only.
    const tag = `jobtag${n}`;
    for (const u of [bob, dave]) {
      const r = await s.request(`/api/v1/tags/${tag}/follow`, { method: "POST", token: u.token });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const tagged = async (author: string) => {
      const id = await remoteStatus(author, { text: `#${tag}` });
      await s.ctx.db.transaction().execute(async (trx) => {
        const tags = await s.ctx.repos.statuses.findOrCreateTags(
          [{ name: tag, display: tag }],
          () => s.ctx.ids.next(),
          new Date().toISOString(),
          trx,
        );
        await s.ctx.repos.statuses.setStatusTags(id, [tags[0].id], trx);
      });
      await s.ctx.queue.enqueue("feeds.fan-out", { statusId: id });
      return id;
    };
    const spamTagged = await tagged(spammer);
    const friendTagged = await tagged(friend);
    await drain();
    const bobFeed = await s.ctx.repos.feeds.page(bob.account.id, { limit: 800 });
    const daveFeed = await s.ctx.repos.feeds.page(dave.account.id, { limit: 800 });
    assert.ok(!bobFeed.includes(spamTagged));
    assert.ok(bobFeed.includes(friendTagged));
    assert.ok(daveFeed.includes(spamTagged));
    assert.ok(daveFeed.includes(friendTagged));
  });
});
